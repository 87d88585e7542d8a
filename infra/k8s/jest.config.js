module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'k8s',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
