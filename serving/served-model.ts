// The one model `trl serve` answers as.
export const servedModel = 'auto';
