//! The host's HTTP API as a function from request to response, so any transport can carry it
//! and tests can call it directly. Trainees authenticate with the join code (and their own
//! token for their own events); the summary and the projector page need the instructor key.

use super::db::{HostDb, TraineeCheck};
use super::login;
use super::mail_relay::{MailRelay, RelayError};
use super::{HostState, MAX_EVENTS_PER_TRAINEE, MAX_TRAINEES, lock, names, projector};
use content::key;
use domain::workshop::wire::{
    BatchReply, Caller, EventBatch, Hello, MAX_BATCH, Miss, PROTOCOL, Rejected, ReportSubmit,
    Route, SendReply, VERSION_STATUS, VersionRefusal,
};
use domain::workshop::{Event, check_name};
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use subtle::ConstantTimeEq;

mod door;
mod instructor;
mod own;
mod relay;

/// Largest request body the host reads (a full batch of events fits with room to spare).
pub const MAX_BODY: usize = 256 * 1024;

/// A request as the API sees it.
pub struct ApiRequest<'a> {
    /// HTTP method.
    pub method: &'a str,
    /// The path without the query.
    pub path: &'a str,
    /// The query string (without `?`).
    pub query: &'a str,
    /// The bearer token of the `Authorization` header.
    pub bearer: Option<&'a str>,
    /// The instructor key from the projector page's login cookie ([`super::login::COOKIE`]).
    pub cookie: Option<&'a str>,
    /// The body (the transport refuses larger ones than [`MAX_BODY`]).
    pub body: &'a [u8],
    /// The client's address (for rate limits).
    pub peer: IpAddr,
}

/// A response: status, content type, body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResponse {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// Body.
    pub body: Vec<u8>,
    /// Headers beyond the content type (`Location`, `Set-Cookie`), by lower-case name.
    pub headers: Vec<(&'static str, String)>,
}

impl ApiResponse {
    /// A one-line plain-text answer (errors say what is wrong and what to do).
    pub fn text(status: u16, message: &str) -> ApiResponse {
        ApiResponse {
            status,
            content_type: "text/plain; charset=utf-8",
            body: format!("{message}\n").into_bytes(),
            headers: Vec::new(),
        }
    }

    /// A page of the host's own HTML.
    pub fn html(status: u16, page: String) -> ApiResponse {
        ApiResponse {
            status,
            content_type: "text/html; charset=utf-8",
            body: page.into_bytes(),
            headers: Vec::new(),
        }
    }

    fn json<T: serde::Serialize>(value: &T) -> ApiResponse {
        match serde_json::to_vec(value) {
            Ok(body) => ApiResponse {
                status: 200,
                content_type: "application/json",
                body,
                headers: Vec::new(),
            },
            Err(e) => ApiResponse::text(500, &format!("cannot encode the answer: {e}")),
        }
    }
}

fn token_hash(token: &str) -> String {
    crate::tls::hex(&Sha256::digest(token.as_bytes()))
}

fn same(a: &str, b: &str) -> bool {
    bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

impl HostState {
    /// Answers one request: [`HostState::admit`], then [`HostState::route`].
    pub fn handle(&self, req: &ApiRequest<'_>, now_ms: i64) -> ApiResponse {
        match self.admit(req.peer, now_ms) {
            Ok(()) => self.route(req, now_ms),
            Err(refused) => refused,
        }
    }

    /// The per-address rate limit; the HTTP server asks it before it reads a body, so a
    /// flood costs the host no body reads.
    pub fn admit(&self, peer: IpAddr, now_ms: i64) -> Result<(), ApiResponse> {
        if lock(&self.limits).allow(peer, now_ms) {
            Ok(())
        } else {
            Err(ApiResponse::text(
                429,
                "too many requests from this address; slow down",
            ))
        }
    }

    /// The refusal of a request whose client names another protocol (the value of its
    /// protocol header); None for this build's protocol or no header at all.
    pub fn version_refusal(protocol: Option<&str>) -> Option<ApiResponse> {
        let named = protocol?;
        if named.trim().parse::<u32>() == Ok(PROTOCOL) {
            return None;
        }
        let mut refusal = ApiResponse::json(&VersionRefusal::this_build());
        refusal.status = VERSION_STATUS;
        Some(refusal)
    }

    /// Answers a request already admitted.
    pub fn route(&self, req: &ApiRequest<'_>, now_ms: i64) -> ApiResponse {
        if req.body.len() > MAX_BODY {
            return ApiResponse::text(413, &format!("body larger than {MAX_BODY} bytes"));
        }
        match Route::find(req.method, req.path) {
            Ok(route) => match self.instructor(req) {
                Err(refusal) if route.instructor() => refusal.response(),
                _ => self.api(route, req, now_ms),
            },
            Err(Miss::Method) => method_not_allowed(),
            Err(Miss::Path) => self.page(req),
        }
    }

    /// Answers an API route; the instructor key was checked for the routes that need it, the
    /// trainee's credentials are checked here.
    fn api(&self, route: Route, req: &ApiRequest<'_>, now_ms: i64) -> ApiResponse {
        match route {
            Route::Events => self.events(req.body, req.peer, now_ms),
            Route::PacePoll => self.pace_poll(req, now_ms),
            Route::Hello => match self.join_code(req) {
                Ok(()) => ApiResponse::json(&Hello::new(&self.name)),
                Err(denied) => denied,
            },
            Route::ReportCode => self.relay_call(req.body, MailRelay::request_code),
            Route::ReportSend => {
                self.relay_call(req.body, |relay, submit| self.report(relay, submit))
            }
            Route::Summary => match self.summary() {
                Ok(view) => ApiResponse::json(&view),
                Err(e) => ApiResponse::text(500, &e.to_string()),
            },
            Route::Pace => self.send_pace(req.body, now_ms),
            Route::Kick => self.kick_request(req.body, now_ms, true),
            Route::Remove => self.kick_request(req.body, now_ms, false),
            Route::Ack => self.ack_request(req.body),
            Route::Lock | Route::Unlock | Route::CountSilent | Route::RemoveSilent => {
                self.door_request(route, now_ms)
            }
        }
    }

    /// Relays a report: composed from what the host stored, never from the request.
    fn report(&self, relay: &MailRelay, submit: &ReportSubmit) -> Result<SendReply, RelayError> {
        let trainee = names::normal_id(&submit.caller.trainee);
        let record = lock(&self.db)
            .trainee_record(&trainee)
            .map_err(|e| RelayError::Database(e.to_string()))?
            .unwrap_or_default();
        let reply = relay.submit(submit, &self.name, record)?;
        if matches!(reply, SendReply::Accepted { .. }) && relay.offers_copy() {
            self.note_instructor_copy(&trainee, submit.instructor_copy);
        }
        Ok(reply)
    }

    /// The pages for a browser: the join page, the projector page, its script and login.
    fn page(&self, req: &ApiRequest<'_>) -> ApiResponse {
        match (req.method, req.path) {
            ("GET", "/join") => self.join_page_for(req),
            ("GET", login::PROJECTOR_PATH) => self.projector_page(req),
            ("GET", projector::LIVE_PATH) => self.projector_live(req),
            ("GET", projector::SCRIPT_PATH) => HostState::projector_script(),
            ("POST", login::LOGIN_PATH) => self.login(req.body),
            (
                _,
                "/join"
                | login::PROJECTOR_PATH
                | projector::LIVE_PATH
                | projector::SCRIPT_PATH
                | login::LOGIN_PATH,
            ) => method_not_allowed(),
            _ => ApiResponse::text(
                404,
                &format!(
                    "no such page; the API has {}, {} and {}",
                    Route::Events.spelled(),
                    Route::PacePoll.spelled(),
                    Route::Summary.spelled()
                ),
            ),
        }
    }

    /// `GET /api/pace?after=N`, authorised by the join code as bearer token: the commands after
    /// the trainee's newest and the decisions revealed.
    fn pace_poll(&self, req: &ApiRequest<'_>, now_ms: i64) -> ApiResponse {
        // `CODE:TOKEN`: a trainee's own poll carries its token after the join code.
        let (code, token) = match req.bearer.and_then(|b| b.split_once(':')) {
            Some((code, token)) => (Some(code), Some(token)),
            None => (req.bearer, None),
        };
        let code_only = ApiRequest {
            bearer: code,
            ..*req
        };
        if let Err(denied) = self.join_code(&code_only) {
            return denied;
        }
        let after = req
            .query
            .split('&')
            .find_map(|p| p.strip_prefix("after="))
            .unwrap_or("0");
        // With `trainee=ID` the reply says whether that trainee's stuck signal was seen.
        let trainee = req
            .query
            .split('&')
            .find_map(|p| p.strip_prefix("trainee="));
        // What concerns one trainee (their stuck signal, their second votes, their presence) is
        // only for that trainee's own client.
        if let Some(trainee) = trainee
            && !self.owns(trainee, token)
        {
            return ApiResponse::text(403, "these answers belong to another trainee");
        }
        match after.parse::<u64>() {
            Ok(after) => {
                let mut reply = self.paces_after(after);
                reply.stuck = trainee.and_then(|t| self.stuck_state(t));
                if let Some(trainee) = trainee {
                    reply.second_given = self.second_given(trainee, &reply.second_votes);
                    // A poll says the trainee's client is open: they count as active.
                    self.heard_from(&names::normal_id(trainee), now_ms);
                }
                ApiResponse::json(&reply)
            }
            Err(_) => ApiResponse::text(400, &format!("after={after:?} is not a number")),
        }
    }

    /// `GET /join?code=CODE...`: the join URL opened in a phone's browser (the projector's QR
    /// code) gets a page, not an API error: how to join, the check digits, the quick reference.
    fn join_page_for(&self, req: &ApiRequest<'_>) -> ApiResponse {
        let code = req.query.split('&').find_map(|p| p.strip_prefix("code="));
        if !code.is_some_and(|c| same(c, &self.code)) {
            return ApiResponse::text(
                403,
                "wrong join code; scan the QR code on the projector again",
            );
        }
        match self.join_page() {
            Some(page) => ApiResponse::html(200, page.to_owned()),
            None => ApiResponse::text(503, "the session is starting; try again in a moment"),
        }
    }

    /// The join code as bearer token (`GET /api/pace`, `GET /api/hello`).
    fn join_code(&self, req: &ApiRequest<'_>) -> Result<(), ApiResponse> {
        match req.bearer {
            Some(code) if same(code, &self.code) => Ok(()),
            Some(_) => Err(ApiResponse::text(403, "wrong join code")),
            None => Err(ApiResponse::text(
                401,
                "the join code is missing (Authorization: Bearer CODE)",
            )),
        }
    }

    /// Join code right and the trainee known with this token.
    fn registered(&self, caller: &Caller) -> Result<(), ApiResponse> {
        if !same(&caller.code, &self.code) {
            return Err(ApiResponse::text(403, "wrong join code"));
        }
        let trainee = names::normal_id(&caller.trainee);
        match lock(&self.db).check_trainee(&trainee, &token_hash(&caller.token)) {
            Ok(TraineeCheck::Known) => Ok(()),
            Ok(TraineeCheck::Removed) => Err(ApiResponse::text(403, REMOVED)),
            Ok(_) => Err(ApiResponse::text(
                403,
                "unknown trainee; run queuelab join to register with the host first",
            )),
            Err(e) => Err(ApiResponse::text(500, &format!("host database: {e}"))),
        }
    }

    fn events(&self, body: &[u8], peer: IpAddr, now_ms: i64) -> ApiResponse {
        let batch: EventBatch = match serde_json::from_slice(body) {
            Ok(b) => b,
            Err(e) => return ApiResponse::text(400, &format!("not an event batch: {e}")),
        };
        let (name, trainee) = match self.check_batch(&batch) {
            Ok(checked) => checked,
            Err(refusal) => return refusal,
        };
        let hash = token_hash(&batch.token);
        let mut db = lock(&self.db);
        if let Err(refusal) = self.admit_trainee(&db, &trainee, &hash, peer, now_ms) {
            return refusal;
        }
        let (mut valid, mut rejected) = self.sort_events(batch.events, now_ms);
        if let Err(refusal) = keep_within_quota(&db, &trainee, &mut valid, &mut rejected) {
            return refusal;
        }
        let stored = match db.store_batch(&trainee, &name, &hash, valid, now_ms) {
            Ok(s) => s,
            Err(e) => return store_failure(&e),
        };
        // Summary after the commit, under the database lock: the order of application matches
        // the order of storage, and a reader never sees an event the database does not hold.
        let mut summary = lock(&self.summary);
        summary.name(&trainee, &stored.name);
        for event in &stored.new {
            summary.apply(&trainee, event, &self.catalog);
        }
        if summary.touch(&trainee, now_ms) && db.note_contact(&trainee, now_ms).is_ok() {
            summary.contact_stored(&trainee, now_ms);
        }
        drop(summary);
        drop(db);
        rejected.extend(stored.rejected);
        ApiResponse::json(&BatchReply {
            session: self.name.clone(),
            stored: stored.new.len() as u32,
            duplicates: stored.duplicates,
            rejected,
            name: Some(stored.name.clone()),
        })
    }

    /// Decides whether a batch is well formed for this session: the join code, the display
    /// name (allowed, and still short enough once normalised), the trainee id and token, the
    /// batch size. Gives the normalised name and trainee id.
    fn check_batch(&self, batch: &EventBatch) -> Result<(String, String), ApiResponse> {
        if !same(&batch.code, &self.code) {
            return Err(ApiResponse::text(
                403,
                "wrong join code; ask the instructor for the join URL",
            ));
        }
        let name = check_name(&batch.name).map_err(|e| ApiResponse::text(422, &e.to_string()))?;
        if let Some(key) = names::refused_name(&name) {
            return Err(ApiResponse::text(422, &self.refusal(key, None)));
        }
        // Checked again after normalising: a ligature or a compatibility form can lengthen it.
        let name = check_name(&names::normal_name(&name))
            .map_err(|e| ApiResponse::text(422, &e.to_string()))?;
        let trainee = names::normal_id(&batch.trainee);
        let trainee_ok = trainee.len() == 32 && trainee.bytes().all(|b| b.is_ascii_hexdigit());
        if !trainee_ok || batch.token.len() < 16 || batch.token.len() > 64 {
            return Err(ApiResponse::text(
                422,
                "trainee id or token malformed; run queuelab join URL --name NAME again",
            ));
        }
        if batch.events.len() > MAX_BATCH {
            return Err(ApiResponse::text(
                413,
                &format!("more than {MAX_BATCH} events in one batch"),
            ));
        }
        Ok((name, trainee))
    }

    /// Decides whether this trainee may store events: a known trainee with its token may; a new
    /// one only while the room is open, the address is not registering too many and the
    /// session is not full; a wrong token or a removed trainee may not.
    fn admit_trainee(
        &self,
        db: &HostDb,
        trainee: &str,
        hash: &str,
        peer: IpAddr,
        now_ms: i64,
    ) -> Result<(), ApiResponse> {
        match db.check_trainee(trainee, hash) {
            Ok(TraineeCheck::Known) => Ok(()),
            Ok(TraineeCheck::New) => match db.trainee_count() {
                // A known trainee (its token) comes back through `Known` above, never here.
                _ if self.locked() => Err(ApiResponse::text(
                    403,
                    &self.refusal(key::workshop::ROOM_LOCKED, None),
                )),
                _ if !lock(&self.registrations).allow(peer, now_ms) => Err(ApiResponse::text(
                    429,
                    "too many new trainees from this address; try again in a minute",
                )),
                Ok(n) if n >= MAX_TRAINEES => Err(ApiResponse::text(
                    403,
                    &format!("this session is full ({MAX_TRAINEES} trainees)"),
                )),
                Ok(_) => Ok(()),
                Err(e) => Err(ApiResponse::text(500, &format!("host database: {e}"))),
            },
            Ok(TraineeCheck::WrongToken) => Err(ApiResponse::text(
                403,
                "these events belong to another trainee",
            )),
            Ok(TraineeCheck::Removed) => Err(ApiResponse::text(403, REMOVED)),
            Err(e) => Err(ApiResponse::text(500, &format!("host database: {e}"))),
        }
    }

    /// Decides which events of a batch the catalog accepts (after cleaning what the trainee
    /// wrote, which reaches the dashboard, the status and the exports): the valid ones and the
    /// rejected ones with their reasons.
    fn sort_events(&self, events: Vec<Event>, now_ms: i64) -> (Vec<Event>, Vec<Rejected>) {
        let mut rejected = Vec::new();
        let mut valid = Vec::new();
        for mut event in events {
            names::clean_event(&mut event);
            names::clamp_time(&mut event, now_ms);
            match self.catalog.validate(&event) {
                Ok(()) => valid.push(event),
                Err(reason) => rejected.push(Rejected {
                    id: event.id,
                    reason,
                }),
            }
        }
        (valid, rejected)
    }
}

/// Decides how many of the valid events the trainee's quota still takes; the rest are rejected.
/// The quota bounds what one trainee can make the host store (and replay at start).
fn keep_within_quota(
    db: &HostDb,
    trainee: &str,
    valid: &mut Vec<Event>,
    rejected: &mut Vec<Rejected>,
) -> Result<(), ApiResponse> {
    let room = match db.event_count(trainee) {
        Ok(n) => MAX_EVENTS_PER_TRAINEE.saturating_sub(n) as usize,
        Err(e) => return Err(ApiResponse::text(500, &format!("host database: {e}"))),
    };
    if valid.len() > room {
        for event in valid.split_off(room) {
            rejected.push(Rejected {
                id: event.id,
                reason: format!(
                    "this trainee's quota of {MAX_EVENTS_PER_TRAINEE} events is used up"
                ),
            });
        }
    }
    Ok(())
}

/// The answer when a batch could not be stored. Either way nothing was stored and the trainee's
/// dispatcher tries again later; the reason tells the instructor what to fix.
fn store_failure(e: &rusqlite::Error) -> ApiResponse {
    let why = if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull) {
        "host disk full; the instructor must free space"
    } else {
        "host database busy, try again"
    };
    ApiResponse::text(503, &format!("{why}: {e}"))
}

impl HostState {
    /// Notes a contact from the trainee's client, stored when the stored one is old enough
    /// (the database lock is taken after the summary's is released, in the order the
    /// delivery path takes them).
    fn heard_from(&self, trainee: &str, now_ms: i64) {
        if !lock(&self.summary).touch(trainee, now_ms) {
            return;
        }
        if lock(&self.db).note_contact(trainee, now_ms).is_ok() {
            lock(&self.summary).contact_stored(trainee, now_ms);
        }
    }
}

fn method_not_allowed() -> ApiResponse {
    ApiResponse::text(405, "method not allowed here")
}

/// What a removed trainee is told when their client delivers again.
const REMOVED: &str = "the instructor removed you from this session";
