module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'platform',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
