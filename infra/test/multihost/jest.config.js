// Three hosts in network namespaces (issue 29 §4): needs root, redis-server (and postgresql with STORE=postgres).
module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'multihost',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.spec.ts'],
};
