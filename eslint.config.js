import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import i18next from "eslint-plugin-i18next";
import { importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = path.dirname(fileURLToPath(import.meta.url));
const featuresDir = path.join(root, "admin/src/features");

function webAppFeatures() {
  try {
    return readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/** A feature may import another feature only through that feature's index.ts. */
const featureZones = webAppFeatures().map((feature) => ({
  target: `admin/src/features/${feature}/**`,
  from: `admin/src/features/!(${feature})/**`,
  except: ["**/admin/src/features/*/index.ts"],
  message: "Import another feature through its index.ts only.",
}));

/** Server layering: router → service → repository, never backwards. */
const serverZones = [
  {
    target: "server/**/*.repository.ts",
    from: ["server/**/*.service.ts", "server/**/*.router.ts"],
    message: "A repository is below services and routers.",
  },
  {
    target: "server/**/*.service.ts",
    from: ["server/**/*.router.ts"],
    message: "A service is below routers.",
  },
  {
    target: "server/**/*.router.ts",
    from: ["server/**/*.repository.ts"],
    message: "A router reaches repositories through its service.",
  },
  {
    // Component tests and their helper (admin/src/test) start the real server; the app never does.
    target: ["admin/src/!(test)/**/!(*.test).{ts,tsx}", "admin/src/*.{ts,tsx}"],
    from: ["server/**"],
    message: "The web app talks to the server over HTTP; shared shapes live in api/.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      "admin/dist/**",
      "dist/**",
      "uploads/**",
      "published/**",
      "bench/.data/**",
      "e2e/screenshots/**",
      "docs/**",
      "**/*.d.ts",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.node },
    },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: path.join(root, "tsconfig.json") })],
    },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "import-x/no-cycle": "error",
      // File-name sanitising strips control characters on purpose.
      "no-control-regex": "off",
      "import-x/no-restricted-paths": ["error", { basePath: root, zones: [...serverZones, ...featureZones] }],
    },
  },
  {
    files: ["server/**/*.ts", "api/**/*.ts"],
    ignores: ["server/**/*.repository.ts", "server/db/**", "server/seeds/**", "server/**/*.test.ts", "server/test/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: [{ name: "knex", message: "Only repositories and server/db/ use knex.", allowTypeImports: true }],
        },
      ],
    },
  },
  {
    files: ["admin/src/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.flat["recommended-latest"].rules,
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      // The app is not compiled by the React Compiler; Refine's and Mantine's hooks return
      // non-memoizable objects, so this warning would flag every useTable/useForm call.
      "react-hooks/incompatible-library": "off",
      // React 18 has no useEffectEvent: a ref holding the latest handler, set during render, is
      // how effects and memoised columns reach current callbacks here (no React Compiler runs).
      "react-hooks/refs": "off",
    },
  },
  {
    // Every string the web app shows comes from its catalogue (admin/src/i18n/locales): text in JSX and
    // the attributes a person sees or hears. Brand names and codes go through it too, or a comment says why not.
    files: ["admin/src/**/*.tsx"],
    ignores: ["admin/src/**/*.test.tsx", "admin/src/test/**"],
    plugins: { i18next },
    rules: {
      "i18next/no-literal-string": [
        "error",
        {
          mode: "jsx-only",
          "jsx-attributes": {
            include: [
              "label",
              "placeholder",
              "title",
              "aria-label",
              "aria-description",
              "alt",
              "description",
              "message",
              "error",
              "tooltip",
              "confirmLabel",
              "cancelLabel",
              "nothingFound",
              "copyLabel",
            ],
          },
          // Form field names and keys handed to these are codes, not text.
          callees: {
            exclude: [
              "t",
              "getInputProps",
              "textProps",
              "fieldError",
              "require",
              "addEventListener",
              "removeEventListener",
            ],
          },
          "jsx-components": { exclude: ["Trans"] },
        },
      ],
    },
  },
  {
    // Messages built in plain .ts files (validation, upload refusals, confirmations) are shown too. The rule
    // cannot tell a message from a code there, so it looks only at sentence-shaped text: a capitalised word
    // followed by more words ("File too large: …"); keys, URLs, CSS and single words pass. Logged texts
    // (console.*, new Error) and UPPER_CASE constants (codes compared elsewhere) are not checked.
    files: ["admin/src/**/*.ts"],
    ignores: ["admin/src/**/*.test.ts", "admin/src/test/**"],
    plugins: { i18next },
    rules: {
      "i18next/no-literal-string": [
        "error",
        {
          mode: "all",
          "should-validate-template": true,
          words: { exclude: ["(?![A-Z][a-z]+(?:['-][a-z]+)?[ ,:]\\s*\\S).*"] },
          callees: { exclude: ["t", "console\\.\\w+", "Error"] },
        },
      ],
    },
  },
);
