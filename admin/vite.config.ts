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
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    restoreMocks: true,
    // CI counts these tests with the others: UI_TEST_REPORT names a JSON report (jest's format) to write.
    reporters: process.env.UI_TEST_REPORT ? ['default', 'json'] : ['default'],
    outputFile: process.env.UI_TEST_REPORT ? { json: process.env.UI_TEST_REPORT } : undefined,
  },
});
