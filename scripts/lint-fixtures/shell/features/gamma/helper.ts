export const gammaHelper = 'own folder: allowed';
