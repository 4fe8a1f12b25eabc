//! A small builder for the OpenAPI document's operations. Schemas come from the typed request and
//! response structs through `utoipa::ToSchema` (collected once into `components/schemas`, nested types
//! included); an operation's parameters and statuses are declared where its route is (`routes::Routes`),
//! one line per fact.

use serde_json::{json, Map, Value};
use utoipa::ToSchema;

/// The schema of one Server-Sent Event of a `text/event-stream` answer (OpenAPI 3.1 has `schema` describe
/// each event, as read by schema-driven clients: its `id`, `event` and `data` fields, `data` being the JSON
/// text `event_data` names).
pub fn sse_event(event_data: &str) -> Value {
    json!({
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "event": {"type": "string"},
            "data": {"type": "string", "description": event_data},
            "retry": {"type": "integer"}
        }
    })
}

/// The document under construction: paths and the schemas they name.
#[derive(Default)]
pub struct Document {
    paths: Map<String, Value>,
    schemas: Map<String, Value>,
}

impl Document {
    /// A `$ref` to `T`'s schema, adding it (and every schema it names) to the components.
    pub fn schema_ref<T: ToSchema>(&mut self) -> Value {
        let mut nested = Vec::new();
        T::schemas(&mut nested);
        for (name, schema) in nested {
            self.add_schema(name, schema);
        }
        let name = T::name().into_owned();
        self.add_schema(name.clone(), T::schema());
        json!({"$ref": format!("#/components/schemas/{name}")})
    }

    fn add_schema(
        &mut self,
        name: String,
        schema: utoipa::openapi::RefOr<utoipa::openapi::Schema>,
    ) {
        let value = serde_json::to_value(schema).expect("a schema serialises");
        match self.schemas.get(&name) {
            None => {
                self.schemas.insert(name, value);
            }
            // Two types of one name would silently share a schema: rename one (`#[schema(as = ...)]`).
            Some(known) => assert!(
                *known == value,
                "two different types are named {name} in the OpenAPI document"
            ),
        }
    }

    /// Starts an operation, to be given its tag and summary; `finish` adds it.
    pub fn operation(&mut self, method: &str, path: &str) -> Operation<'_> {
        Operation {
            doc: self,
            method: method.to_ascii_lowercase(),
            path: path.to_owned(),
            body: json!({"parameters": [], "responses": {}})
                .as_object()
                .cloned()
                .expect("an object"),
        }
    }

    /// The paths and components, to be placed in the document.
    pub fn into_parts(self) -> (Map<String, Value>, Map<String, Value>) {
        (self.paths, self.schemas)
    }
}

/// Where a parameter goes.
#[derive(Clone, Copy)]
pub enum In {
    Header,
    Path,
    Query,
}

/// A parameter: name, place, whether required, what it means, and its JSON schema.
#[derive(Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub place: In,
    pub required: bool,
    pub description: &'static str,
    /// `string`, `integer`, `boolean`, `uuid`, `date` or `enum:a|b|c`.
    pub kind: &'static str,
}

impl Param {
    pub const fn header(name: &'static str, required: bool, description: &'static str) -> Self {
        Param {
            name,
            place: In::Header,
            required,
            description,
            kind: "string",
        }
    }

    pub const fn query(name: &'static str, kind: &'static str, description: &'static str) -> Self {
        Param {
            name,
            place: In::Query,
            required: false,
            description,
            kind,
        }
    }

    pub const fn path(name: &'static str, kind: &'static str, description: &'static str) -> Self {
        Param {
            name,
            place: In::Path,
            required: true,
            description,
            kind,
        }
    }

    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    pub const fn kind(mut self, kind: &'static str) -> Self {
        self.kind = kind;
        self
    }

    fn to_json(self) -> Value {
        let place = match self.place {
            In::Header => "header",
            In::Path => "path",
            In::Query => "query",
        };
        json!({
            "name": self.name,
            "in": place,
            "required": self.required || matches!(self.place, In::Path),
            "description": self.description,
            "schema": kind_schema(self.kind),
        })
    }
}

fn kind_schema(kind: &str) -> Value {
    match kind {
        "integer" => json!({"type": "integer", "format": "int32", "minimum": 0}),
        "boolean" => json!({"type": "boolean"}),
        "uuid" => json!({"type": "string", "format": "uuid"}),
        "date" => json!({"type": "string", "format": "date"}),
        other => match other.strip_prefix("enum:") {
            Some(values) => {
                json!({"type": "string", "enum": values.split('|').collect::<Vec<_>>()})
            }
            None => json!({"type": "string"}),
        },
    }
}

/// One operation being declared.
pub struct Operation<'d> {
    doc: &'d mut Document,
    method: String,
    path: String,
    body: Map<String, Value>,
}

impl Operation<'_> {
    /// The tag the operation is listed under (one of the document's `tags`).
    pub fn tag(mut self, tag: &str) -> Self {
        self.body.insert("tags".into(), json!([tag]));
        self
    }

    /// What the operation does, in a line.
    pub fn summary(mut self, summary: &str) -> Self {
        self.body.insert("summary".into(), json!(summary));
        self
    }

    /// A longer explanation (markdown).
    pub fn description(mut self, text: &str) -> Self {
        self.body.insert("description".into(), json!(text));
        self
    }

    /// Adds parameters; path parameters are taken from the path by [`Self::finish`].
    pub fn params(mut self, params: &[Param]) -> Self {
        let list = self.body["parameters"].as_array_mut().expect("an array");
        for param in params {
            list.push(param.to_json());
        }
        self
    }

    /// Needs the operator credential (a bearer token; docs/reference/access.md).
    pub fn operator(mut self) -> Self {
        self.body
            .insert("security".into(), json!([{"operator": []}]));
        self
    }

    /// Marks the operation deprecated.
    pub fn deprecated(mut self) -> Self {
        self.body.insert("deprecated".into(), json!(true));
        self
    }

    /// A JSON request body of type `T`.
    pub fn body<T: ToSchema>(mut self, required: bool) -> Self {
        let schema = self.doc.schema_ref::<T>();
        self.body.insert(
            "requestBody".into(),
            json!({"required": required, "content": {"application/json": {"schema": schema}}}),
        );
        self
    }

    /// A JSON request body that is a list of `T`.
    pub fn body_list<T: ToSchema>(mut self) -> Self {
        let item = self.doc.schema_ref::<T>();
        self.body.insert(
            "requestBody".into(),
            json!({"required": true, "content": {"application/json": {"schema": {"type": "array", "items": item}}}}),
        );
        self
    }

    /// A request body of another media type, with its schema.
    pub fn raw_body(mut self, media_type: &str, schema: Value) -> Self {
        self.body.insert(
            "requestBody".into(),
            json!({"required": true, "content": {media_type: {"schema": schema}}}),
        );
        self
    }

    /// A JSON answer of type `T`.
    pub fn answers<T: ToSchema>(self, status: u16, description: &str) -> Self {
        let schema = self.doc.schema_ref::<T>();
        self.answers_with(status, description, "application/json", schema)
    }

    /// A JSON answer that is a list of `T`.
    pub fn answers_list<T: ToSchema>(self, status: u16, description: &str) -> Self {
        let item = self.doc.schema_ref::<T>();
        let schema = json!({"type": "array", "items": item});
        self.answers_with(status, description, "application/json", schema)
    }

    /// An answer with any media type and schema (HTML pages, event streams, files).
    pub fn answers_with(
        mut self,
        status: u16,
        description: &str,
        media_type: &str,
        schema: Value,
    ) -> Self {
        let responses = self.body["responses"].as_object_mut().expect("an object");
        let entry = responses
            .entry(status.to_string())
            .or_insert_with(|| json!({"description": description, "content": {}}));
        entry["content"][media_type] = json!({"schema": schema});
        self
    }

    /// An answer without a body.
    pub fn empty(mut self, status: u16, description: &str) -> Self {
        self.body["responses"][status.to_string()] = json!({"description": description});
        self
    }

    /// The refusals this operation can give: each status answers a `tppMessages` body.
    pub fn refusals(mut self, statuses: &[u16]) -> Self {
        for status in statuses {
            let key = status.to_string();
            if self.body["responses"].get(&key).is_none() {
                self.body["responses"][key] =
                    json!({"$ref": format!("#/components/responses/Refused{status}")});
            }
        }
        self
    }

    /// Adds the operation to the document, with the refusals every operation can meet in the layers in
    /// front of it: the transport's limits (408, 413, 431), an internal error (500), and for the signed
    /// interface the gate (400, 403; 401 from the central register), a fault plan's injected answers (429, 503; docs/rehearsal.md) and a
    /// body of the wrong media type (415).
    pub fn finish(mut self) {
        assert!(
            self.body.contains_key("tags") && self.body.contains_key("summary"),
            "{} {} has no tag or no summary",
            self.method,
            self.path
        );
        let signed = self.body["parameters"]
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["name"] == "Signature"));
        let mut common = vec![408, 413, 431, 500];
        if signed {
            common.extend([400, 401, 403, 405, 429, 503]);
            // Under the production profile /v1/sandbox answers 404 as an unknown path does.
            if self.path.starts_with("/v1/sandbox") {
                common.push(404);
            }
        }
        // A body of another media type is refused even where the operation ignores its body.
        if self.body.contains_key("requestBody")
            || matches!(self.method.as_str(), "post" | "put" | "patch")
        {
            common.extend([400, 415]);
        }
        if self.body.contains_key("security") {
            common.extend([401, 403]);
        }
        self = self.refusals(&common);
        let mut path_params = Vec::new();
        for segment in self.path.split('/') {
            if let Some(name) = segment.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                path_params.push(json!({
                    "name": name, "in": "path", "required": true, "schema": {"type": "string"}
                }));
            }
        }
        let list = self.body["parameters"].as_array_mut().expect("an array");
        for param in path_params.into_iter().rev() {
            let name = param["name"].clone();
            if !list.iter().any(|p| p["name"] == name && p["in"] == "path") {
                list.insert(0, param);
            }
        }
        if list.is_empty() {
            self.body.remove("parameters");
        }
        let id = operation_id(&self.method, &self.path);
        self.body.insert("operationId".into(), json!(id));
        let item = self
            .doc
            .paths
            .entry(self.path.clone())
            .or_insert_with(|| json!({}));
        assert!(
            item.get(&self.method).is_none(),
            "{} {} is declared twice",
            self.method,
            self.path
        );
        item[&self.method] = Value::Object(self.body);
    }
}

/// A readable, unique operation id from the method and path: `get_v1_accounts_accountId_balances`.
fn operation_id(method: &str, path: &str) -> String {
    let mut id = method.to_owned();
    let path = match path.strip_suffix('/') {
        Some(stem) if !stem.is_empty() => format!("{stem}/index"),
        _ => path.to_owned(),
    };
    for segment in path.split('/').filter(|s| !s.is_empty()) {
        id.push('_');
        id.extend(
            segment
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                .filter(|c| *c != '_' || !segment.starts_with('{')),
        );
    }
    id
}
