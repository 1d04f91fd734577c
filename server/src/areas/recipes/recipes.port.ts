/**
 * What other areas may use of the recipes area: the units table (house and plan add up amounts in the
 * units recipes write) and a member's recipe settings (plan scales recipes to them).
 */
export { settings, units } from './recipes.service.ts';
