module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'testing',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
