//! One entry or one journey of the traffic log asked for by id (docs/traffic-api.md): 404
//! RESOURCE_UNKNOWN at `id` for one the log does not hold. A number already handed out but not yet stored
//! is waited for, so that the composer's answer (which names its exchange) can be followed by a read of it
//! at once.

use super::model::{EventEntry, Exchange, Journey};
use super::TrafficLog;
use xs2a_core::domain::refusal::{CoreResult, Refusal};

impl TrafficLog {
    /// One entry whole (an exchange, or an event), waiting for one handed out but not yet stored; none
    /// when the log does not hold it.
    async fn whole(&self, id: u64) -> CoreResult<Option<Result<Exchange, EventEntry>>> {
        if let Some(found) = self.get(id)? {
            return Ok(Some(found));
        }
        if !self.issued(id) {
            return Ok(None);
        }
        self.settled().await;
        self.get(id)
    }

    /// One entry whole: 404 RESOURCE_UNKNOWN at `id` ("traffic entry") when the log does not hold it.
    pub async fn entry(&self, id: u64) -> CoreResult<Result<Exchange, EventEntry>> {
        self.whole(id)
            .await?
            .ok_or_else(|| Refusal::unknown("id", "traffic entry", &id.to_string()))
    }

    /// One exchange whole: 404 RESOURCE_UNKNOWN at `id` ("exchange") for an event or an id the log does
    /// not hold.
    pub async fn exchange(&self, id: u64) -> CoreResult<Exchange> {
        match self.whole(id).await? {
            Some(Ok(exchange)) => Ok(exchange),
            _ => Err(Refusal::unknown("id", "exchange", &id.to_string())),
        }
    }

    /// One journey: 404 RESOURCE_UNKNOWN at `id` when the log does not hold it.
    pub fn known_journey(&self, id: &str) -> CoreResult<Journey> {
        self.journey(id)
            .ok_or_else(|| Refusal::unknown("id", "journey", id))
    }
}

#[cfg(test)]
mod tests {
    use crate::traffic::TrafficLog;
    use xs2a_core::domain::refusal::Code;

    #[tokio::test]
    async fn refuses_what_the_log_does_not_hold() {
        let events = xs2a_core::bank::events::Events::default();
        let log =
            TrafficLog::start(xs2a_core::store::Store::temporary().unwrap(), &events).unwrap();
        let entry = log.entry(7).await.unwrap_err();
        assert_eq!(
            (entry.status(), entry.code, entry.path.as_deref()),
            (404, Code::ResourceUnknown, Some("id"))
        );
        assert_eq!(
            entry.text,
            "No traffic entry with id '7' exists in this sandbox."
        );
        let exchange = log.exchange(7).await.unwrap_err();
        assert_eq!(
            exchange.text,
            "No exchange with id '7' exists in this sandbox."
        );
        let journey = log.known_journey("payment:1").unwrap_err();
        assert_eq!(
            (journey.status(), journey.code),
            (404, Code::ResourceUnknown)
        );
    }
}
