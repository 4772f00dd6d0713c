import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';

export const SUBSCRIPTION_OVER_HTTP_MESSAGE =
  'subscriptions are served over WebSocket (the graphql-ws protocol on /graphql); an HTTP request carries a query or a mutation';

/**
 * Refuses a subscription sent over HTTP with a 400. Apollo Server executes such a request as if it were a
 * query: the subscription's resolve function runs without an event, returns nothing for a non-null field,
 * and the client got a 500 (found by test/security/fuzz.e2e-spec.ts). graphql-ws bypasses Apollo Server,
 * so this hook only ever sees HTTP requests; subscriptions over the socket are untouched.
 */
export function subscriptionsOverWebSocketOnly(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation !== 'subscription') return;
          throw new GraphQLError(SUBSCRIPTION_OVER_HTTP_MESSAGE, {
            extensions: { code: 'BAD_REQUEST', http: { status: 400 } },
          });
        },
      };
    },
  };
}
