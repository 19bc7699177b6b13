//! Every route of the host's API, defined once: its method and its path. The host dispatches
//! on [`Route::find`] and the client asks with [`Route::method`] and [`Route::path`], so a path
//! is spelled in this file and nowhere else.

/// One route of the host's JSON API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Route {
    /// `GET /api/hello`, join code as bearer: the session's name and the protocol version.
    Hello,
    /// `POST /api/events`: a trainee's [`super::EventBatch`], answered by a
    /// [`super::BatchReply`].
    Events,
    /// `GET /api/pace?after=N[&trainee=ID]`, join code (and the trainee's token) as bearer:
    /// the pacing commands after N ([`crate::workshop::pace::PaceReply`]).
    PacePoll,
    /// `POST /api/pace`, instructor key: a pacing command, answered by the stored
    /// [`crate::workshop::Pace`].
    Pace,
    /// `GET /api/summary`, instructor key: the [`crate::workshop::SummaryView`].
    Summary,
    /// `POST /api/kick`, instructor key: removes a trainee ([`super::Who`]) and refuses their
    /// client; answered by [`super::Kicked`].
    Kick,
    /// `POST /api/remove`, instructor key: removes a trainee's row only ([`super::Who`]).
    Remove,
    /// `POST /api/ack`, instructor key: acknowledges a stuck signal ([`super::Who`]),
    /// answered by [`super::Acknowledged`].
    Ack,
    /// `POST /api/lock`, instructor key: no new trainees ([`super::DoorState`]).
    Lock,
    /// `POST /api/unlock`, instructor key: new trainees may join ([`super::DoorState`]).
    Unlock,
    /// `GET /api/silent`, instructor key: how many trainees never sent an event
    /// ([`super::SilentCount`]).
    CountSilent,
    /// `POST /api/silent`, instructor key: removes them ([`super::SilentRemoved`]).
    RemoveSilent,
    /// `POST /api/report/code`: a [`super::CodeRequest`], answered by a [`super::CodeReply`].
    ReportCode,
    /// `POST /api/report/send`: a [`super::ReportSubmit`], answered by a
    /// [`super::SendReply`].
    ReportSend,
}

/// Why a request matches no route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Miss {
    /// No route has this path.
    Path,
    /// A route has this path, not with this method.
    Method,
}

impl Route {
    /// Every route.
    pub const ALL: [Route; 14] = [
        Route::Hello,
        Route::Events,
        Route::PacePoll,
        Route::Pace,
        Route::Summary,
        Route::Kick,
        Route::Remove,
        Route::Ack,
        Route::Lock,
        Route::Unlock,
        Route::CountSilent,
        Route::RemoveSilent,
        Route::ReportCode,
        Route::ReportSend,
    ];

    /// The HTTP method.
    pub fn method(self) -> &'static str {
        match self {
            Route::Hello | Route::PacePoll | Route::Summary | Route::CountSilent => "GET",
            Route::Events
            | Route::Pace
            | Route::Kick
            | Route::Remove
            | Route::Ack
            | Route::Lock
            | Route::Unlock
            | Route::RemoveSilent
            | Route::ReportCode
            | Route::ReportSend => "POST",
        }
    }

    /// The path (without a query).
    pub fn path(self) -> &'static str {
        match self {
            Route::Hello => "/api/hello",
            Route::Events => "/api/events",
            Route::PacePoll | Route::Pace => "/api/pace",
            Route::Summary => "/api/summary",
            Route::Kick => "/api/kick",
            Route::Remove => "/api/remove",
            Route::Ack => "/api/ack",
            Route::Lock => "/api/lock",
            Route::Unlock => "/api/unlock",
            Route::CountSilent | Route::RemoveSilent => "/api/silent",
            Route::ReportCode => "/api/report/code",
            Route::ReportSend => "/api/report/send",
        }
    }

    /// Whether the route needs the instructor key.
    pub fn instructor(self) -> bool {
        matches!(
            self,
            Route::Pace
                | Route::Summary
                | Route::Kick
                | Route::Remove
                | Route::Ack
                | Route::Lock
                | Route::Unlock
                | Route::CountSilent
                | Route::RemoveSilent
        )
    }

    /// Whether the route is the mail relay's (its answers come from "the workshop host").
    pub fn relay(self) -> bool {
        matches!(self, Route::ReportCode | Route::ReportSend)
    }

    /// The route of `method` and `path`.
    pub fn find(method: &str, path: &str) -> Result<Route, Miss> {
        let mut same_path = Route::ALL
            .into_iter()
            .filter(|r| r.path() == path)
            .peekable();
        if same_path.peek().is_none() {
            return Err(Miss::Path);
        }
        same_path.find(|r| r.method() == method).ok_or(Miss::Method)
    }

    /// `METHOD PATH`, as the host's messages name a route.
    pub fn spelled(self) -> String {
        format!("{} {}", self.method(), self.path())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_route_is_found_at_its_own_method_and_path() {
        for route in Route::ALL {
            assert_eq!(Route::find(route.method(), route.path()), Ok(route));
        }
        let spelled: std::collections::BTreeSet<String> =
            Route::ALL.iter().map(|r| r.spelled()).collect();
        assert_eq!(spelled.len(), Route::ALL.len(), "no two routes share both");
    }

    #[test]
    fn a_wrong_method_or_path_is_a_miss_not_another_route() {
        assert_eq!(Route::find("DELETE", "/api/events"), Err(Miss::Method));
        assert_eq!(Route::find("PUT", "/api/pace"), Err(Miss::Method));
        assert_eq!(Route::find("GET", "/api/event"), Err(Miss::Path));
        assert_eq!(Route::find("GET", "/api/pace"), Ok(Route::PacePoll));
        assert_eq!(Route::find("POST", "/api/pace"), Ok(Route::Pace));
    }
}
