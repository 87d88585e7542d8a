module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'reviews',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
