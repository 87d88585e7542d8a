// Shared by every project's jest.config: TypeScript through swc (decorator metadata on), path aliases.
const path = require('node:path');
const root = __dirname;
module.exports = {
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata', path.join(__dirname, 'jest.setup.js')],
  setupFilesAfterEnv: [path.join(__dirname, 'jest.timeout.js')],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        swcrc: false,
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^@app/testing/engines$': path.join(root, 'libs/testing/engines/src/index.ts'),
    '^@app/(contracts|platform|bus|store|testing)$': path.join(root, 'libs/$1/src/index.ts'),
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
};
