/** The charity form's checks (zod and the finance schemas), loaded when the form is first submitted. */
export { validateCharity } from '@site/contracts/finance';
