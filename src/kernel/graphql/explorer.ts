import type { FastifyInstance } from 'fastify';
import { ruruHTML } from 'ruru/server';
import { getStaticFile } from 'ruru/static';

const STATIC_PATH = '/graphql-explorer/static/';

/** The example the explorer opens with: feasible nodes for a pod (API.md "Operations"). */
export const EXAMPLE_QUERY = `# Which nodes can this pod use, ranked, and why not
# the others? Import the example cluster first (README,
# "Try it"), then run this with the pink button or
# Ctrl-Enter: a pod asking for one GPU.
#
# Then try a stored pod instead of the inline one:
#   podRef: { namespace: "shop", name: "web-5f8d9c7b6-pz4rt" }
# or what a taint would do before you apply it:
#   taintImpact(
#     taints: ["maintenance=true:NoExecute"]
#     nodes: ["worker-1"]
#   ) { evictions { pod { name } action evictAt } }
query FeasibleNodesForPod {
  feasibleNodes(
    pod: {
      tolerations: [{
        key: "nvidia.com/gpu", operator: Exists, effect: NoSchedule
      }]
      resources: {
        requests: [{ key: "nvidia.com/gpu", value: "1" }]
      }
    }
    limit: 10
  ) {
    totalNodes
    feasibleCount
    message
    nodes {
      name
      feasible
      score
      scores { TaintToleration NodeAffinity }
      reasons { plugin message taint { key value effect } resource }
    }
  }
}
`;

/**
 * GET /graphql from a browser opens GraphiQL (ruru), every script and stylesheet served by the
 * service itself, so the explorer works with no internet. Apollo's own landing page loads from a CDN
 * and is disabled.
 */
export function registerExplorer(app: FastifyInstance, graphqlPath = '/graphql'): void {
  const html = ruruHTML({
    staticPath: STATIC_PATH,
    endpoint: graphqlPath,
    clientConfig: { initialQuery: EXAMPLE_QUERY, defaultQuery: EXAMPLE_QUERY },
  }).replace(/<title>[^<]*<\/title>/, '<title>taintwise GraphQL explorer</title>');

  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET') return;
    const path = request.url.split('?')[0];
    if (path !== graphqlPath) return;
    const accept = String(request.headers.accept ?? '');
    const hasQuery = request.url.includes('?') && /[?&]query=/.test(request.url);
    if (!accept.includes('text/html') || hasQuery) return;
    return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  app.get(`${STATIC_PATH}*`, async (request, reply) => {
    const file = await getStaticFile({
      staticPath: STATIC_PATH,
      urlPath: request.url.split('?')[0],
      acceptEncoding: request.headers['accept-encoding'],
      disallowDevAssets: true,
    });
    if (!file)
      return reply
        .status(404)
        .header('content-type', 'application/problem+json')
        .send(
          JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'no such explorer asset' }),
        );
    return reply.headers(file.headers).send(file.content);
  });
}
