// `import strings from "./file.tsx?jsx-strings"`, served by jsxStringsPlugin (tests/support/jsx-strings.ts).
declare module "*?jsx-strings" {
  const strings: import("./jsx-strings").JsxString[];
  export default strings;
}
