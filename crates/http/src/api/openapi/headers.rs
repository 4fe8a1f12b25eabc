//! The bank's common header set as OpenAPI parameters, grouped the way the bank applies them: every signed
//! request, the basket set (B), the payment set (P), the AIS reads.

use super::builder::Param;

const X_REQUEST_ID: Param = Param::header(
    "X-Request-ID",
    true,
    "Unique identifier of the call, set by the TPP.",
)
.kind("uuid");
const DATE: Param = Param::header(
    "Date",
    true,
    "RFC 7231 date of the request; signed, and within the accepted skew of the sandbox clock.",
);
const SIGNATURE: Param = Param::header(
    "Signature",
    true,
    "HTTP message signature (keyId, algorithm rsa-sha256, headers, signature); see Authentication.",
);
const TPP_SIGNATURE_CERTIFICATE: Param = Param::header(
    "TPP-Signature-Certificate",
    true,
    "Base64 DER certificate that signed the request (a QSealC from the test CA).",
);
const DIGEST: Param = Param::header(
    "Digest",
    false,
    "SHA-256= or SHA-512= base64 hash of the body (RFC 3230); required and signed when there is a body.",
);

/// What every request to the bank interface (`/v1`) carries: it passes the signature gate.
pub const SIGNED: &[Param] = &[
    X_REQUEST_ID,
    DATE,
    DIGEST,
    SIGNATURE,
    TPP_SIGNATURE_CERTIFICATE,
];

const PSU_ID: Param = Param::header("PSU-ID", false, "The PSU identifier.").kind("uuid");
const TPP_SESSION_ID: Param = Param::header("TPP-Session-ID", false, "TPP session identifier.");
const TPP_REDIRECT_URI: Param = Param::header(
    "TPP-Redirect-URI",
    false,
    "Where the PSU is sent after an SCA redirect.",
);
const TPP_REDIRECT_PREFERRED: Param = Param::header(
    "TPP-Redirect-Preferred",
    false,
    "false asks for biometric authentication in the bank's app where available.",
)
.kind("enum:true|false");
const PSU_IP_ADDRESS: Param = Param::header(
    "PSU-IP-Address",
    false,
    "Forwarded address of the PSU; present when the PSU acts in real time (absent: the 24-hour limits apply).",
);
const PSU_CORPORATE_ID: Param = Param::header(
    "PSU-Corporate-ID",
    false,
    "Corporate agreement of the PSU; in corporate context it applies to every call.",
);
const X_ACCEPT_FIX: Param = Param::header(
    "x-accept-fix",
    false,
    "Comma-separated names of announced breaking changes to activate early (see Versioning).",
);
const PSU_CONTEXT: Param =
    Param::header("PSU-Context", false, "PRIVATE or CORPORATE.").kind("enum:PRIVATE|CORPORATE");
const X_PSU_IDENTITY: Param = Param::header(
    "X-PSU-IDENTITY",
    false,
    "Alternative to PSU-ID: the Norwegian national identity or D-number.",
);
const TPP_BRAND: Param = Param::header(
    "TPP-Brand-Logging-Information",
    false,
    "TPP brand shown towards the PSU.",
);
const AUTH_METHOD: Param = Param::header(
    "X-PSU-AuthMethod-Preferred",
    false,
    "Preferred authentication method for the SCA this request may start.",
);
const PSU_IP_PORT: Param = Param::header("PSU-IP-Port", false, "Forwarded port of the PSU.");
const PSU_DEVICE_ID: Param =
    Param::header("PSU-Device-ID", false, "Forwarded device identifier.").kind("uuid");
const PSU_USER_AGENT: Param = Param::header("PSU-User-Agent", false, "Forwarded User-Agent.");
const PSU_HTTP_METHOD: Param = Param::header(
    "PSU-HTTP-Method",
    false,
    "The method used between PSU and TPP.",
)
.kind("enum:GET|POST|PUT|PATCH|DELETE");
const CONSENT_ID: Param = Param::header(
    "Consent-ID",
    false,
    "The consent to read under; without it the TPP session's consent applies.",
);

/// Account information reads: who the PSU is, whether they are present, their session and fixes.
pub const AIS: &[Param] = &[
    PSU_ID,
    CONSENT_ID,
    PSU_IP_ADDRESS,
    PSU_CORPORATE_ID,
    TPP_SESSION_ID,
    TPP_REDIRECT_URI,
    X_ACCEPT_FIX,
];

/// Requests that may start an SCA (the bank's sets B and P, less the payment-only headers).
pub const SCA: &[Param] = &[
    PSU_ID,
    X_PSU_IDENTITY,
    PSU_CONTEXT,
    PSU_CORPORATE_ID,
    PSU_IP_ADDRESS,
    PSU_IP_PORT,
    PSU_USER_AGENT,
    PSU_HTTP_METHOD,
    PSU_DEVICE_ID,
    TPP_SESSION_ID,
    TPP_REDIRECT_URI,
    TPP_REDIRECT_PREFERRED,
    AUTH_METHOD,
    X_ACCEPT_FIX,
];

/// The bank's sets B and P (docs/interface.md#payments: baskets, payment creation and their authorisation): what
/// `SCA` lists, with the headers the sandbox requires marked so (PSU-ID may be replaced by X-PSU-IDENTITY on a
/// payment).
pub const SET_B_P: &[Param] = &[
    PSU_ID,
    X_PSU_IDENTITY,
    PSU_CONTEXT,
    PSU_CORPORATE_ID,
    PSU_IP_ADDRESS.required(),
    PSU_IP_PORT,
    PSU_USER_AGENT,
    PSU_HTTP_METHOD,
    PSU_DEVICE_ID,
    TPP_SESSION_ID.required(),
    TPP_REDIRECT_URI.required(),
    TPP_REDIRECT_PREFERRED,
    AUTH_METHOD,
    X_ACCEPT_FIX.required(),
];

/// Payment creation adds the brand to set P.
pub const PAYMENT: &[Param] = &[TPP_BRAND];
