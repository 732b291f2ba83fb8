// The API's types for the UI: web/src/api-schema.ts made by openapi-typescript from the API's
// OpenAPI document (web/openapi.json, which `python -m devkit.openapi_document` writes). The
// Makefile's `web` rule runs both; tests/test_web_types.py fails while the committed files are
// not what they make.
//   node scripts/api-schema.mjs openapi.json src/api-schema.ts
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import openapiTS, { astToString } from "openapi-typescript";

const HEADER = `// Generated from the API's OpenAPI document (web/openapi.json) by openapi-typescript
// (web/scripts/api-schema.mjs): do not edit. After a change of the API's schemas, \`make web\`
// writes both again; commit them with the change. The UI names these types in src/types.ts.

`;

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node scripts/api-schema.mjs OPENAPI_JSON OUTPUT_TS");
  process.exit(2);
}
const ast = await openapiTS(JSON.parse(readFileSync(input, "utf8")));
// whole or not at all: a build never reads half a file
writeFileSync(`${output}.partial`, HEADER + astToString(ast));
renameSync(`${output}.partial`, output);
