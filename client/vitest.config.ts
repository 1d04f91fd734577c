import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { reporters } from '../vitest.shared.ts';

export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    reporters: reporters('client'),
  },
});
