module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'squads',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
};
