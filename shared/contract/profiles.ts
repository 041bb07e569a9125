/** Operations of the `profiles` area. See docs/architecture.md, "How to add an operation". */
export const profiles = {};
