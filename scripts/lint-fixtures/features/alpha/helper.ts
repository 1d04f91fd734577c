export const alphaHelper = 'own folder: allowed';
