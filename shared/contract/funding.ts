/** Operations of the `funding` area. See docs/architecture.md, "How to add an operation". */
export const funding = {};
