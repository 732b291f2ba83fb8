import { defineConfig } from "vitest/config";

// The server serves dist/ at `/` and dist/assets at `/assets`; during `npx vite` development the
// API calls go to a server started with `make run`.
export default defineConfig({
  base: "/",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 300 },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
  test: { environment: "node", include: ["src/**/*.test.ts"] },
});
