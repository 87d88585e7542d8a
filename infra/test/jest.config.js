module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'system',
  rootDir: __dirname,
  testMatch: ['<rootDir>/system/**/*.spec.ts'],
};
