// For `tsc` only (tsconfig.json): acorn's typings leave out Token's `value` (the name, the number, the
// string's value, the punctuation's text, …), which acorn sets on every token its tokenizer yields.
export {};

declare module 'acorn' {
  interface Token {
    value: any;
  }
}
