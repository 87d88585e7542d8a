import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  root: here('.'),
  plugins: [react()],
  resolve: {
    // Exact names: the runtime entry is not a path under the index.
    alias: [
      { find: /^@app\/contracts\/runtime$/, replacement: here('../libs/contracts/src/runtime.ts') },
      { find: /^@app\/contracts$/, replacement: here('../libs/contracts/src/index.ts') },
    ],
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    globals: false,
    setupFiles: ['src/test-setup.ts'],
  },
});
