/**
 * The documents of an MCP server's sign-in, as valibot schemas: protected resource metadata
 * (RFC 9728), authorization server metadata (RFC 8414, or an OpenID configuration), a token
 * answer (RFC 6749) and a client registration (RFC 7591). Each keeps fields it does not name,
 * since they are stored as received and another program (upstream Pi) reads the same file.
 */
import * as v from "valibot";

const Url = v.pipe(v.string(), v.url());

export const ProtectedResourceMetadataSchema = v.looseObject({
  resource: Url,
  authorization_servers: v.optional(v.array(Url)),
  scopes_supported: v.optional(v.array(v.string())),
});
export type ProtectedResourceMetadata = v.InferOutput<typeof ProtectedResourceMetadataSchema>;

export const AuthServerMetadataSchema = v.looseObject({
  issuer: Url,
  authorization_endpoint: Url,
  token_endpoint: Url,
  registration_endpoint: v.optional(Url),
  scopes_supported: v.optional(v.array(v.string())),
  response_types_supported: v.optional(v.array(v.string())),
  grant_types_supported: v.optional(v.array(v.string())),
  token_endpoint_auth_methods_supported: v.optional(v.array(v.string())),
  code_challenge_methods_supported: v.optional(v.array(v.string())),
  client_id_metadata_document_supported: v.optional(v.boolean()),
  /** Whether authorization responses carry `iss` (RFC 9207). */
  authorization_response_iss_parameter_supported: v.optional(v.boolean()),
});
export type AuthServerMetadata = v.InferOutput<typeof AuthServerMetadataSchema>;

export const TokensSchema = v.looseObject({
  access_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.optional(v.string()),
  expires_in: v.optional(v.pipe(v.number(), v.finite())),
  scope: v.optional(v.string()),
  refresh_token: v.optional(v.string()),
  id_token: v.optional(v.string()),
});
export type Tokens = v.InferOutput<typeof TokensSchema>;

export const ClientInformationSchema = v.looseObject({
  client_id: v.pipe(v.string(), v.minLength(1)),
  client_secret: v.optional(v.string()),
  client_id_issued_at: v.optional(v.number()),
  client_secret_expires_at: v.optional(v.number()),
  redirect_uris: v.optional(v.array(v.string())),
  token_endpoint_auth_method: v.optional(v.string()),
});
export type ClientInformation = v.InferOutput<typeof ClientInformationSchema>;

/** What discovery found, kept so a refresh need not discover again. */
export const DiscoverySchema = v.looseObject({
  authorizationServerUrl: Url,
  authorizationServerMetadata: v.optional(AuthServerMetadataSchema),
  resourceMetadata: v.optional(ProtectedResourceMetadataSchema),
  resourceMetadataUrl: v.optional(v.string()),
});
export type Discovery = v.InferOutput<typeof DiscoverySchema>;
