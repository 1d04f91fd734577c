import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `ms` (a search or a pasted link asked once per pause in typing). */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
