// A workflow history from its JSON form (what `temporal workflow show --output json` writes), for replay.
// @temporalio/common's historyFromJSON parses with its own copy of protobufjs, while the message types it parses into
// are built by @temporalio/proto's copy; with both installed (as here) protobufjs refuses the foreign type ("type must
// be a Type"). So the parse uses @temporalio/proto's copy, the one its types belong to.
import { createRequire } from 'node:module';
import type { temporal } from '@temporalio/proto';

const requireFromProto = createRequire(createRequire(import.meta.url).resolve('@temporalio/proto'));
const { fromJson } = requireFromProto('protobufjs/ext/protojson') as {
  fromJson(type: unknown, json: unknown, options: { ignoreUnknownFields: boolean }): unknown;
};
const { patchProtobufRoot } = requireFromProto('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot(root: unknown): { lookupType(name: string): unknown };
};
const historyType = patchProtobufRoot(requireFromProto('@temporalio/proto')).lookupType(
  'temporal.api.history.v1.History',
);

export function historyFromJson(json: unknown): temporal.api.history.v1.IHistory {
  return fromJson(historyType, json, { ignoreUnknownFields: true }) as temporal.api.history.v1.IHistory;
}
