// How chain things are shown: hotkeys shortened, hashes shortened, TAO with sensible digits.
export function shortHotkey(hotkey: string): string {
  return hotkey.length > 14 ? `${hotkey.slice(0, 6)}…${hotkey.slice(-6)}` : hotkey;
}

export function shortHash(hash: string | undefined): string {
  return hash ? `${hash.slice(0, 12)}…` : '—';
}

export function formatTao(tao: number): string {
  return tao >= 1000 ? tao.toFixed(0) : tao.toFixed(3);
}

export function formatPercent(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}
