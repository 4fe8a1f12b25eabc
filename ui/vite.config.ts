// Build, dev-server and unit-test configuration of the workbench UI.
// `base: './'` because the same build is served by the service at /workbench/ and by Tauri at tauri://localhost/.
import { defineConfig } from "vitest/config";
import solid from "vite-plugin-solid";

const service = process.env.XS2A_SERVICE ?? "http://127.0.0.1:8080";

export default defineConfig({
  base: "./",
  plugins: [solid()],
  server: {
    // Work against `xs2a-sandbox serve`: the API, the SSE stream and the SCA callback live under /workbench.
    // The service serves only its own origin, so the proxied requests say they come from it.
    proxy: {
      "/workbench": {
        target: service,
        changeOrigin: true,
        configure: (proxy) => {
          proxy.on("proxyReq", (request) => {
            if (request.getHeader("origin")) request.setHeader("origin", service);
          });
        },
      },
    },
  },
  build: {
    outDir: "dist",
    target: "es2022",
    sourcemap: false,
    // The Solid transform is most of a build; rolldown's note saying so on every build is noise.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./src/test/setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
