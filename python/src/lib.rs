//! agentlines for Python: agent logs as Arrow record batches of the three tables
//! ([`agentlines::tables`], docs/tables.md), for pyarrow, DuckDB, Polars, pandas and Spark.
//!
//! ```python
//! import agentlines
//! runs = agentlines.runs("logs/**/*.jsonl").read_all()        # a pyarrow.Table
//! for batch in agentlines.entries("logs/"): ...                 # streamed, a batch at a time
//! agentlines.read_bytes("runs", "a.jsonl", data)                # bytes from anywhere (Spark)
//! ```
//!
//! Each call gives a `pyarrow.RecordBatchReader` that reads the files as it is iterated
//! (memory: a line and a batch). A file that cannot be read gives a runs row naming why; a
//! pattern that matches nothing, or a table name that is not one, raises `ValueError`.

use ::agentlines::tables::{Cell, Row, Table, Type};
use agentlines_tables::{expand, Rows, Source, BATCH_ROWS};
use arrow_array::builder::{BooleanBuilder, Float64Builder, Int64Builder, StringBuilder, TimestampMicrosecondBuilder};
use arrow_array::{ArrayRef, RecordBatch, RecordBatchReader};
use arrow_pyarrow::{IntoPyArrow, ToPyArrow};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use std::sync::Arc;

fn data_type(ty: Type) -> DataType {
    match ty {
        Type::Text => DataType::Utf8,
        Type::Int => DataType::Int64,
        Type::Float => DataType::Float64,
        Type::Bool => DataType::Boolean,
        // Microseconds, as Spark and DuckDB keep times (Spark refuses milliseconds).
        Type::Time => DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
    }
}

/// The table's Arrow schema, each field carrying its column's documentation.
fn schema_of(table: Table) -> SchemaRef {
    let fields: Vec<Field> = table
        .columns()
        .iter()
        .map(|c| {
            Field::new(c.name, data_type(c.ty), true)
                .with_metadata(std::collections::HashMap::from([("doc".to_owned(), c.doc.to_owned())]))
        })
        .collect();
    Arc::new(Schema::new(fields))
}

fn batch_of(table: Table, schema: &SchemaRef, rows: &[Row]) -> Result<RecordBatch, ArrowError> {
    let mut arrays: Vec<ArrayRef> = Vec::with_capacity(schema.fields().len());
    for (i, c) in table.columns().iter().enumerate() {
        let cells = rows.iter().map(|r| &r[i]);
        arrays.push(match c.ty {
            Type::Text => {
                let mut b = StringBuilder::with_capacity(rows.len(), rows.len() * 16);
                for cell in cells {
                    match cell {
                        Cell::Text(s) => b.append_value(s),
                        _ => b.append_null(),
                    }
                }
                Arc::new(b.finish())
            }
            Type::Int => {
                let mut b = Int64Builder::with_capacity(rows.len());
                cells.for_each(|cell| b.append_option(if let Cell::Int(n) = cell { Some(*n) } else { None }));
                Arc::new(b.finish())
            }
            Type::Float => {
                let mut b = Float64Builder::with_capacity(rows.len());
                cells.for_each(|cell| b.append_option(if let Cell::Float(x) = cell { Some(*x) } else { None }));
                Arc::new(b.finish())
            }
            Type::Bool => {
                let mut b = BooleanBuilder::with_capacity(rows.len());
                cells.for_each(|cell| b.append_option(if let Cell::Bool(x) = cell { Some(*x) } else { None }));
                Arc::new(b.finish())
            }
            Type::Time => {
                let mut b = TimestampMicrosecondBuilder::with_capacity(rows.len()).with_timezone("UTC");
                cells.for_each(|cell| b.append_option(if let Cell::Time(ms) = cell { Some(ms.saturating_mul(1000)) } else { None }));
                Arc::new(b.finish())
            }
        });
    }
    RecordBatch::try_new(schema.clone(), arrays)
}

/// Batches of a table over logs read one after the other.
struct Batches {
    table: Table,
    schema: SchemaRef,
    rows: Rows,
    failed: bool,
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    /// Called by pyarrow through the C stream interface, where a panic must not unwind: one
    /// becomes the stream's error (and the stream ends), never an abort of Python.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.rows.next_batch(BATCH_ROWS)));
        match got {
            Ok(rows) if rows.is_empty() => None,
            Ok(rows) => Some(batch_of(self.table, &self.schema, &rows)),
            Err(_) => {
                self.failed = true;
                Some(Err(ArrowError::ExternalError("agentlines: reading a log failed (a bug: please report it)".into())))
            }
        }
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

fn table_named(name: &str) -> PyResult<Table> {
    Table::from_name(name)
        .ok_or_else(|| PyValueError::new_err(format!("no table {name:?}: the tables are entries, runs and tool_calls")))
}

/// One path: a `str` or an `os.PathLike` (`pathlib.Path`).
fn path_of(arg: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(s) = arg.extract::<String>() {
        return Some(s);
    }
    let fspath = arg.py().import("os").ok()?.getattr("fspath").ok()?;
    fspath.call1((arg,)).ok()?.extract::<String>().ok()
}

/// The paths one argument or a list of them names (files, folders, glob patterns; `str` or
/// `pathlib.Path`).
fn expand_paths(arg: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let wrong = || PyValueError::new_err("give a path, a folder, a glob pattern (str or pathlib.Path), or a list of them");
    let args: Vec<String> = match path_of(arg) {
        Some(one) => vec![one],
        None => match arg.cast::<pyo3::types::PyList>() {
            Ok(list) => list.iter().map(|a| path_of(&a).ok_or_else(wrong)).collect::<PyResult<_>>()?,
            Err(_) => match arg.cast::<pyo3::types::PyTuple>() {
                Ok(t) => t.iter().map(|a| path_of(&a).ok_or_else(wrong)).collect::<PyResult<_>>()?,
                Err(_) => return Err(wrong()),
            },
        },
    };
    let expanded = expand(&args).map_err(PyValueError::new_err)?;
    if let Some((_, why)) = expanded.problems.first() {
        return Err(PyValueError::new_err(why.clone()));
    }
    Ok(expanded.paths)
}

fn reader(py: Python<'_>, table: Table, sources: Vec<Source>) -> PyResult<Py<PyAny>> {
    let rows = Rows::new(table, sources);
    let b: Box<dyn RecordBatchReader + Send> = Box::new(Batches { table, schema: schema_of(table), rows, failed: false });
    Ok(b.into_pyarrow(py)?.unbind())
}

/// `table(name, paths)`: a `pyarrow.RecordBatchReader` over the files `paths` names (a path,
/// a folder, a glob pattern, or a list of them).
#[pyfunction]
fn table(py: Python<'_>, name: &str, paths: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let t = table_named(name)?;
    let sources = expand_paths(paths)?.into_iter().map(Source::Path).collect();
    reader(py, t, sources)
}

/// `entries(paths)`: one row per transcript entry.
#[pyfunction]
fn entries(py: Python<'_>, paths: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    table(py, "entries", paths)
}

/// `runs(paths)`: one row per log.
#[pyfunction]
fn runs(py: Python<'_>, paths: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    table(py, "runs", paths)
}

/// `tool_calls(paths)`: one row per tool call.
#[pyfunction]
fn tool_calls(py: Python<'_>, paths: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    table(py, "tool_calls", paths)
}

/// `read_bytes(table, name, data)`: the rows of one log whose bytes are at hand (Spark's
/// `binaryFile` content, an object store's download); `name` fills the `file` column.
#[pyfunction]
fn read_bytes(py: Python<'_>, table: &str, name: String, data: PyBackedBytes) -> PyResult<Py<PyAny>> {
    let t = table_named(table)?;
    let input = Box::new(std::io::Cursor::new(data));
    reader(py, t, vec![Source::Reader { name, input }])
}

/// `schema(table)`: the table's `pyarrow.Schema` (each field's metadata holds its `doc`).
#[pyfunction]
fn schema(py: Python<'_>, table: &str) -> PyResult<Py<PyAny>> {
    Ok(schema_of(table_named(table)?).as_ref().to_pyarrow(py)?.unbind())
}

#[pymodule]
#[pyo3(name = "agentlines")]
fn agentlines_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(entries, m)?)?;
    m.add_function(wrap_pyfunction!(runs, m)?)?;
    m.add_function(wrap_pyfunction!(tool_calls, m)?)?;
    m.add_function(wrap_pyfunction!(read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add("TABLES", ["entries", "runs", "tool_calls"])?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
