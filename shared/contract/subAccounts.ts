/** Operations of the `subAccounts` area. See docs/architecture.md, "How to add an operation". */
export const subAccounts = {};
