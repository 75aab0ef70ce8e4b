// `trl serve`'s own defaults (the seat's poll, the shadow's share and cap), apart from the command so
// that the usage text can print them without loading it.
export const defaultSeatPollSec = 30;
export const defaultShadowRate = 0.1;
export const defaultShadowCapUsd = 1;
