// A provider as read, in the shape a configuration update sends it: 0.7.36 replaces each provider
// list wholesale, so every change (a form, a review, `E`, `apply`) sends the providers it keeps in
// this shape, and the file of `export` writes them the same way.
import type {OidcProvider, OidcProviderWrite, SamlProvider, SamlProviderWrite} from './schemas.js';

export function toOidcWrite(p: OidcProvider): OidcProviderWrite {
  return {
    id: p.id,
    label: p.label,
    scope: p.scope,
    response_type: p.response_type,
    client_id: p.client_id,
    client_secret: p.client_secret,
    discovery_document_uri: p.discovery_document_uri,
    redirect_uri: p.redirect_uri,
    auto_create_users: p.auto_create_users,
  };
}

export function toSamlWrite(p: SamlProvider): SamlProviderWrite {
  return {
    id: p.id,
    label: p.label,
    base_url: p.base_url,
    metadata: p.metadata,
    sign_requests: p.sign_requests,
    sign_metadata: p.sign_metadata,
    signed_assertion_in_resp: p.signed_assertion_in_resp,
    signed_envelopes_in_resp: p.signed_envelopes_in_resp,
    auto_create_users: p.auto_create_users,
  };
}
