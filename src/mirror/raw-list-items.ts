import type { ConfigurationOptions, ResponseContext } from '@kubernetes/client-node';
import { clientNode } from './client-node';

/** Where `rawListItems` leaves the items of the list it read. */
export interface RawItemsSink {
  items: Array<Record<string, unknown>>;
}

/**
 * Options for one client-node list call that keep the list's items as the server sent them (wire JSON) and let
 * client-node turn only the rest (kind, apiVersion, metadata: resourceVersion, continue) into its typed model.
 *
 * Why: client-node deserializes every item into its typed models (a walk of the OpenAPI type map per field, Dates
 * for timestamps), and the mirror then had to turn them back into wire JSON for the import (JSON round trip). At
 * 150,000 pods that was ~15 s of the mirror's CPU in the initial sync's profile (bench/ANALYSIS.md, issue 14), for
 * objects the import reads as wire JSON anyway, exactly as a watch event carries them. A response middleware —
 * client-node's own hook, run "before the response is deserialized" — parses the body once, keeps the items and
 * hands the client the list without them; the request itself (server, credentials, TLS, query, errors as
 * ApiException) stays client-node's. Answers other than 2xx pass through untouched.
 */
export function rawListItems(sink: RawItemsSink): ConfigurationOptions {
  const { Observable } = clientNode();
  return {
    middleware: [
      {
        pre: (context) => new Observable(Promise.resolve(context)),
        post: (response) => new Observable(withoutItems(response, sink)),
      },
    ],
    middlewareMergeStrategy: 'append',
  };
}

async function withoutItems(response: ResponseContext, sink: RawItemsSink): Promise<ResponseContext> {
  if (response.httpStatusCode < 200 || response.httpStatusCode > 299) return response;
  const list = JSON.parse(await response.body.text()) as { items?: Array<Record<string, unknown>> | null };
  sink.items = list.items ?? [];
  list.items = [];
  const rest = JSON.stringify(list);
  return new (clientNode().ResponseContext)(response.httpStatusCode, response.headers, {
    text: () => Promise.resolve(rest),
    binary: () => Promise.resolve(Buffer.from(rest)),
  });
}
