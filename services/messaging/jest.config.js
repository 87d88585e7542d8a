module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'messaging',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
