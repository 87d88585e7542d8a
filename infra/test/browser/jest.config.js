// Browser tests: the built SPA in real Chromium (playwright-core) against the embedded stack.
module.exports = {
  ...require('../../../jest.preset.js'),
  displayName: 'browser',
  rootDir: __dirname,
  testMatch: ['<rootDir>/**/*.browser.spec.ts'],
};
