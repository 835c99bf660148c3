//! A DuckDB extension over agentlines' three tables ([`agentlines::tables`], documented in
//! docs/tables.md): `agentlines_entries(path)`, `agentlines_runs(path)` and
//! `agentlines_tool_calls(path)`, where `path` is a file, a folder (its log files,
//! recursively) or a glob pattern (`'logs/**/*.jsonl'`).
//!
//! Rows stream: each of DuckDB's threads takes a file, hands out a vector's worth of its rows
//! per call and comes back for more, so memory is a line and a vector per thread whatever
//! the glob holds, and files are read in parallel. A file that cannot be read gives a runs
//! row naming why (`problem`); a pattern that matches nothing is an error naming it, as
//! DuckDB's own `read_json` gives. A panic inside is contained by the `duckdb` crate and
//! becomes the query's error.

use agentlines::tables::{Cell, Table, Type};
use agentlines_tables::{expand, FileRows, BATCH_ROWS};
use duckdb::core::{DataChunkHandle, Inserter, LogicalTypeHandle, LogicalTypeId};
use duckdb::vtab::{BindInfo, InitInfo, TableFunctionInfo, VTab};
use duckdb::{duckdb_entrypoint_c_api, Connection};
use std::error::Error;
use std::sync::Mutex;

/// What a call was given: the table and its files.
pub struct Bound {
    table: Table,
    paths: Vec<String>,
}

/// The work left, shared by DuckDB's threads: files not yet opened, and files opened and
/// put back between two calls.
pub struct Work {
    state: Mutex<(usize, Vec<FileRows>)>,
}

fn logical(ty: Type) -> LogicalTypeHandle {
    LogicalTypeHandle::from(match ty {
        Type::Text => LogicalTypeId::Varchar,
        Type::Int => LogicalTypeId::Bigint,
        Type::Float => LogicalTypeId::Double,
        Type::Bool => LogicalTypeId::Boolean,
        Type::Time => LogicalTypeId::Timestamp,
    })
}

/// The files the call's one argument names (a file, a folder or a glob pattern); a name
/// that gives no file is the query's error, naming it.
fn paths_of(bind: &BindInfo) -> Result<Vec<String>, Box<dyn Error>> {
    let expanded = expand(&[bind.get_parameter(0).to_string()])?;
    if let Some((_, why)) = expanded.problems.first() {
        return Err(why.clone().into());
    }
    Ok(expanded.paths)
}

fn bind_table(table: Table, bind: &BindInfo) -> Result<Bound, Box<dyn Error>> {
    for c in table.columns() {
        bind.add_result_column(c.name, logical(c.ty));
    }
    Ok(Bound { table, paths: paths_of(bind)? })
}

fn init_work(init: &InitInfo, paths: usize) -> Result<Work, Box<dyn Error>> {
    init.set_max_threads(paths.clamp(1, 64) as u64);
    Ok(Work { state: Mutex::new((0, Vec::new())) })
}

/// Fills `output` with up to a vector of rows from one file (another thread may be reading
/// another file); a length of 0 once every file is done.
fn produce(bound: &Bound, work: &Work, output: &mut DataChunkHandle) -> Result<(), Box<dyn Error>> {
    let mut rows = Vec::with_capacity(BATCH_ROWS);
    loop {
        let file = {
            let mut s = work.state.lock().map_err(|_| "agentlines: a reader thread failed")?;
            match s.1.pop() {
                Some(f) => Some(f),
                None if s.0 < bound.paths.len() => {
                    s.0 += 1;
                    let p = &bound.paths[s.0 - 1];
                    Some(FileRows::open(bound.table, p, p))
                }
                None => None,
            }
        };
        let Some(mut file) = file else { break };
        let more = file.next_rows(BATCH_ROWS, &mut rows);
        if more {
            work.state.lock().map_err(|_| "agentlines: a reader thread failed")?.1.push(file);
        }
        if !rows.is_empty() {
            break;
        }
    }
    write(bound.table, &rows, output);
    Ok(())
}

fn write(table: Table, rows: &[Vec<Cell>], output: &mut DataChunkHandle) {
    for i in 0..table.columns().len() {
        let mut v = output.flat_vector(i);
        for (r, row) in rows.iter().enumerate() {
            match &row[i] {
                Cell::Null => v.set_null(r),
                Cell::Text(s) => v.insert(r, s.as_str()),
                // SAFETY: each column's vector has the physical type `logical(ty)` gives
                // it (BIGINT and TIMESTAMP: i64, DOUBLE: f64, BOOLEAN: bool) and a vector's
                // capacity of rows, which `rows` (at most BATCH_ROWS) never passes.
                Cell::Int(n) => unsafe { v.as_mut_slice::<i64>()[r] = *n },
                Cell::Float(x) => unsafe { v.as_mut_slice::<f64>()[r] = *x },
                Cell::Bool(b) => unsafe { v.as_mut_slice::<bool>()[r] = *b },
                // DuckDB's TIMESTAMP counts microseconds.
                Cell::Time(ms) => unsafe { v.as_mut_slice::<i64>()[r] = ms.saturating_mul(1000) },
            }
        }
    }
    output.set_len(rows.len());
}

macro_rules! table_function {
    ($vtab:ident, $table:expr) => {
        pub struct $vtab;

        impl VTab for $vtab {
            type InitData = Work;
            type BindData = Bound;

            fn bind(bind: &BindInfo) -> Result<Bound, Box<dyn Error>> {
                bind_table($table, bind)
            }

            fn init(init: &InitInfo) -> Result<Work, Box<dyn Error>> {
                // SAFETY: the bind data of this function is the `Bound` its bind returned.
                let paths = unsafe { (*init.get_bind_data::<Bound>()).paths.len() };
                init_work(init, paths)
            }

            fn func(func: &TableFunctionInfo<Self>, output: &mut DataChunkHandle) -> Result<(), Box<dyn Error>> {
                produce(func.get_bind_data(), func.get_init_data(), output)
            }

            fn parameters() -> Option<Vec<LogicalTypeHandle>> {
                Some(vec![LogicalTypeHandle::from(LogicalTypeId::Varchar)])
            }
        }
    };
}

table_function!(EntriesTable, Table::Entries);
table_function!(RunsTable, Table::Runs);
table_function!(ToolCallsTable, Table::ToolCalls);

#[duckdb_entrypoint_c_api(ext_name = "agentlines", min_duckdb_version = "v1.2.0")]
pub fn extension_entrypoint(con: Connection) -> Result<(), Box<dyn Error>> {
    con.register_table_function::<EntriesTable>("agentlines_entries")?;
    con.register_table_function::<RunsTable>("agentlines_runs")?;
    con.register_table_function::<ToolCallsTable>("agentlines_tool_calls")?;
    Ok(())
}
