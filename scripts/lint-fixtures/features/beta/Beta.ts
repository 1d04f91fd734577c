export const beta = (): string => 'beta';
