export const shellTitle = (): string => 'the app shell';
