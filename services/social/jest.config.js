module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'social',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
