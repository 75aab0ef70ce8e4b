// OpenAI-style errors of the sim fleet: each carries its HTTP status, so the server maps them in one place.
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

export class SimApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string | null,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'SimApiError';
  }

  toBody(): OpenAiErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

export function invalidRequest(
  message: string,
  param: string | null,
  code: string | null = 'invalid_value',
): SimApiError {
  return new SimApiError(400, 'invalid_request_error', code, message, param);
}
