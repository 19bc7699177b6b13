//! Mail relay requests from trainees: run only for a registered trainee, answered in the
//! trainee's language when the host has no mail settings.

use super::ApiResponse;
use crate::host::mail_relay::{MailRelay, RelayError};
use crate::host::{HostState, lock};
use content::Lang;
use content::key;
use domain::workshop::wire::{Caller, CodeRequest, ReportSubmit};

impl HostState {
    /// A mail relay request, run only for a registered trainee. A host without mail settings
    /// refuses it with the reason in the trainee's language (503: nothing was queued).
    pub(super) fn relay_call<T: serde::de::DeserializeOwned + HasCaller, R: serde::Serialize>(
        &self,
        body: &[u8],
        call: impl FnOnce(&MailRelay, &T) -> Result<R, RelayError>,
    ) -> ApiResponse {
        let request: T = match serde_json::from_slice(body) {
            Ok(r) => r,
            Err(e) => return ApiResponse::text(400, &format!("not a mail request: {e}")),
        };
        if let Err(denied) = self.registered(request.caller()) {
            return denied;
        }
        let Some(relay) = &self.relay else {
            let reason = self.refusal(key::workshop::RELAY_NO_MAIL, request.lang());
            return ApiResponse::text(503, &reason);
        };
        match call(relay, &request) {
            Ok(reply) => ApiResponse::json(&reply),
            Err(e) => ApiResponse::text(e.status(), &e.to_string()),
        }
    }
}

impl HostState {
    /// Keeps the trainee's answer to the instructor-copy question of a report the relay
    /// accepted, for the summary and its export (database first, so a restart keeps it).
    pub(super) fn note_instructor_copy(&self, trainee: &str, consent: bool) {
        if lock(&self.db)
            .note_instructor_copy(trainee, consent)
            .is_ok()
        {
            lock(&self.summary).instructor_copy(trainee, consent);
        }
    }
}

/// Mail requests carry who asks (and the code request the trainee's language).
pub(super) trait HasCaller {
    fn caller(&self) -> &Caller;
    fn lang(&self) -> Option<Lang>;
}

impl HasCaller for CodeRequest {
    fn caller(&self) -> &Caller {
        &self.caller
    }
    fn lang(&self) -> Option<Lang> {
        Some(self.lang)
    }
}

impl HasCaller for ReportSubmit {
    fn caller(&self) -> &Caller {
        &self.caller
    }
    fn lang(&self) -> Option<Lang> {
        None
    }
}
