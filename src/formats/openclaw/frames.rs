//! OpenClaw `res` and `req` frames: compact lines for responses (stderr when `ok` is false),
//! the user's message for `agent`/`chat.send` requests.

use crate::prelude::*;
use super::super::common::{self, path, str_of, type_of, Emit, Owned};
use crate::entry::Entry;
use crate::json::Value;

pub(super) fn response(v: &Value, payload: &Value, ts: &str, out: &mut Vec<Entry>) {
    let id = v
        .get("id")
        .map(|i| {
            i.as_str()
                .map(str::owned)
                .unwrap_or_else(|| common::compact_json(i))
        })
        .unwrap_or_default();
    if v.get("ok").and_then(Value::as_bool) != Some(true) {
        let err = v.get("error").unwrap_or(&Value::Null);
        let msg = str_of(err, "message").unwrap_or("request failed");
        let text = match str_of(err, "code") {
            Some(code) => format!("error: request {id} failed: {code}: {msg}"),
            None => format!("error: request {id} failed: {msg}"),
        };
        out.emit(Entry::stderr(ts, text));
        return;
    }
    if type_of(payload) == "hello-ok" {
        let proto = payload
            .get("protocol")
            .map(common::compact_json)
            .unwrap_or_else(|| "?".into());
        let version = path(payload, &["server", "version"])
            .and_then(Value::as_str)
            .unwrap_or("?");
        out.emit(Entry::system(
            ts,
            format!("connected to the gateway (protocol {proto}, server {version})"),
        ));
        return;
    }
    if let (Some(run), Some(status)) = (str_of(payload, "runId"), str_of(payload, "status")) {
        if status == "error" {
            let err = str_of(payload, "error")
                .or_else(|| str_of(payload, "summary"))
                .unwrap_or("run failed");
            out.emit(Entry::stderr(ts, format!("error: run {run}: {err}")));
        } else {
            out.emit(Entry::system(ts, format!("run {run}: {status}")));
        }
        return;
    }
    let details = common::short_fields(payload, 3);
    let text = if details.is_empty() {
        format!("response {id}: ok")
    } else {
        format!("response {id}: ok ({details})")
    };
    out.emit(Entry::system(ts, text));
}

pub(super) fn request(v: &Value, ts: &str, out: &mut Vec<Entry>) {
    let method = str_of(v, "method").unwrap_or("");
    let params = v.get("params").unwrap_or(&Value::Null);
    match (method, str_of(params, "message")) {
        ("agent" | "chat.send", Some(m)) if !m.trim().is_empty() => out.emit(Entry::user(ts, m)),
        ("connect", _) => {
            let client = path(params, &["client", "id"])
                .and_then(Value::as_str)
                .unwrap_or("client");
            out.emit(Entry::system(
                ts,
                format!("connecting to the gateway as {client}"),
            ));
        }
        _ => out.emit(Entry::system(ts, format!("request: {method}"))),
    }
}
