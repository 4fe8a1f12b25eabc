// ESLint flat config: typescript-eslint's type-aware rules and the Solid plugin over src, e2e and scripts.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import solid from "eslint-plugin-solid/configs/typescript";
import globals from "globals";

export default tseslint.config(
  // The generated wire types (scripts/gen-types.mjs) are not linted.
  { ignores: ["dist/", "node_modules/", "test-results/", "playwright-report/", "src/api/generated/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ["./tsconfig.json", "./tsconfig.node.json"],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.browser },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    ...solid,
    rules: {
      ...solid.rules,
      // form.run(action), load(key, action) and act(key, action) call their action at once, outside any
      // tracking; a promise's then- and catch-callbacks likewise. Reading signals there is intended.
      "solid/reactivity": ["warn", { customReactiveFunctions: ["run", "load", "act", "then", "catch"] }],
    },
  },
  {
    files: ["scripts/**", "e2e/**", "*.config.{js,ts}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Plain-JavaScript tools, not part of the app (the service's stand-in, the frame-time measurement, the
    // type generator, the import-cycle check):
    // linted without types.
    files: ["scripts/fake-service.mjs", "scripts/frame-time.mjs", "scripts/gen-types.mjs", "scripts/check-cycles.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { parserOptions: { project: false, projectService: false } },
  },
  {
    files: ["**/*.test.{ts,tsx}", "src/test/**"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
);
