export const users = (): string[] => [];
