import react from '@vitejs/plugin-react-swc';
import { defineConfig } from 'vitest/config';

/** The running service `npm run dev:admin` sends API calls to. */
const service = process.env.ADMIN_DEV_SERVICE ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every asset a file of its own: the Content-Security-Policy admits no data: URLs for scripts or styles.
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
  server: {
    port: Number(process.env.ADMIN_DEV_PORT ?? 5173),
    strictPort: true,
    // Everything but the UI itself is the service's API.
    proxy: { '^/(?!admin(/|$))': { target: service, changeOrigin: false } },
  },
  test: {
    environment: 'jsdom',
    // One jsdom window and one module graph per worker instead of per file: building them again for each file took
    // longer than the tests themselves. Each test unmounts what it rendered and has its mocks and stubbed globals
    // undone after it (fake timers too, in the files that use them), so a file leaves nothing behind for the next.
    isolate: false,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // CI counts these tests with the others: UI_TEST_REPORT names a JSON report (jest's format) to write.
    reporters: process.env.UI_TEST_REPORT ? ['default', 'json'] : ['default'],
    outputFile: process.env.UI_TEST_REPORT ? { json: process.env.UI_TEST_REPORT } : undefined,
  },
});
