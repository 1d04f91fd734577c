// Alpha's named port: what other areas may call.
export const alphaCount = (): number => 0;
