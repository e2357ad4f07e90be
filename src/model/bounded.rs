//! Evaluating regex matchers within bounds of time, stack and memory, for `run`, `simulate`,
//! `validate` and `convert` alike.
//!
//! Agent matchers are ECMAScript regexes, run by `regress`: a backtracking engine with no step
//! limit, whose parser recurses on nesting. So:
//! - a pattern longer than [`MAX_REGEX_BYTES`], or a value longer than [`MAX_VALUE_BYTES`], is
//!   not given to the engine at all ([`Answer::Unevaluable`]); literal alternatives
//!   ([`super::matcher::Literals`]) need no engine and have no such cap;
//! - the engine runs on a worker thread with a [`STACK_BYTES`] stack (reserved, touched only as
//!   used), so deep nesting cannot overflow the caller's stack;
//! - each job gets [`MATCH_TIME_LIMIT`], and all jobs one thread asks for together
//!   [`MATCH_BUDGET`] of waiting for the engine: once it is spent every regex job of that thread
//!   is unevaluable at once, so however many runaway matchers a hook set holds, an event (one
//!   thread of one process) waits at most the budget. Per thread, not per process: a library
//!   caller's threads (a test binary's tests, running side by side) do not spend each other's
//!   budget. Real matchers answer in microseconds and never come near it. A job that
//!   overruns is abandoned: its thread cannot be stopped, so it is lowered to the lowest CPU
//!   priority and ends with the process (`run`, `validate`, `convert` and `simulate` all exit
//!   once they have answered).
//!
//! An unevaluable matcher is never read as "no match": callers report it as its own outcome
//! ([`crate::dispatch::select::MatchVerdict::Unevaluable`]).

use crate::model::matcher::{CompiledMatcher, Literals, MAX_REGEX_BYTES, MatcherForm};
use std::collections::HashMap;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

/// Longest value a regex is tested against (tool names, sources, triggers are short).
pub const MAX_VALUE_BYTES: usize = 64 * 1024;

/// The worker thread's stack: deep enough for any pattern within [`MAX_REGEX_BYTES`].
pub const STACK_BYTES: usize = 256 * 1024 * 1024;

/// How long one regex job may take to compile and test its values. Real matchers answer in
/// microseconds; `(a+)+$` against forty `a`s and a `!` would run for hours.
pub const MATCH_TIME_LIMIT: Duration = Duration::from_secs(1);

/// How long all regex jobs one thread asks for may take together.
pub const MATCH_BUDGET: Duration = Duration::from_secs(3);

/// One regex to compile and test against some values (none: only compile it).
#[derive(Clone, Debug)]
pub struct Job {
    pub pattern: String,
    pub anchored: bool,
    /// Shared: `convert` tries every tool matcher on the same names.
    pub values: std::sync::Arc<[String]>,
}

/// What became of a job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Whether the regex matches each value.
    Matches(Vec<bool>),
    /// Not a valid ECMAScript regex (the engine's message).
    Invalid(String),
    /// Valid or not, hookx could not evaluate it within its bounds: why, starting "ran away"
    /// or "not evaluated".
    Unevaluable(String),
}

impl Job {
    pub fn new(pattern: &str, anchored: bool, values: impl Into<std::sync::Arc<[String]>>) -> Job {
        Job {
            pattern: pattern.to_string(),
            anchored,
            values: values.into(),
        }
    }

    fn form(&self) -> MatcherForm {
        MatcherForm::Regex {
            pattern: self.pattern.clone(),
            anchored: self.anchored,
        }
    }

    /// The answer when no engine is needed, or the engine must not be given the job.
    fn precheck(&self) -> Option<Answer> {
        if let Some(matched) = literal_matches(&self.pattern, self.anchored, &self.values) {
            return Some(Answer::Matches(matched));
        }
        self.refusal()
    }

    /// Whether the job goes to the engine: it is not a list of literals, nor refused.
    fn needs_engine(&self) -> bool {
        !Literals::is_shape(&self.pattern, self.anchored) && self.refusal().is_none()
    }

    /// Why the engine must not be given the job, if it must not.
    fn refusal(&self) -> Option<Answer> {
        if self.pattern.len() > MAX_REGEX_BYTES {
            return Some(Answer::Unevaluable(format!(
                "not evaluated: the regex is {} bytes; hookx evaluates regexes of up to \
                 {MAX_REGEX_BYTES} bytes",
                self.pattern.len()
            )));
        }
        if let Some(v) = self.values.iter().find(|v| v.len() > MAX_VALUE_BYTES) {
            return Some(Answer::Unevaluable(format!(
                "not evaluated: the value is {} bytes; hookx tests regexes on values of up to \
                 {MAX_VALUE_BYTES} bytes",
                v.len()
            )));
        }
        None
    }

    fn run(&self) -> Answer {
        match CompiledMatcher::compile(&self.form()) {
            Ok(m) => Answer::Matches(self.values.iter().map(|v| m.is_match(v)).collect()),
            Err(e) => Answer::Invalid(e),
        }
    }
}

thread_local! {
    /// How long this thread has waited for the regex engine, in all.
    static SPENT: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::ZERO) };
}

thread_local! {
    /// Answers of jobs run ahead by [`with_answers`] on this thread, by pattern.
    #[allow(clippy::type_complexity)]
    static AHEAD: std::cell::RefCell<HashMap<String, Vec<(bool, std::sync::Arc<[String]>, Answer)>>> =
        std::cell::RefCell::new(HashMap::new());
}

/// Runs `f` with a budget of its own: what this thread waited for the engine before does not
/// count against it. One conversion is one unit of work, as one event is for `run`: converting
/// file after file on one thread (a library caller, the corpus suites) must give each file the
/// output it gets alone, and on a loaded machine the waits of real matchers add up to the
/// budget. What `f` waited still counts for what comes after.
pub fn with_own_budget<T>(f: impl FnOnce() -> T) -> T {
    let before = SPENT.replace(Duration::ZERO);
    let out = f();
    SPENT.set(before + SPENT.get());
    out
}

/// Spends this thread's budget, as waiting on runaway matchers would.
#[cfg(test)]
pub(crate) fn spend_this_threads_budget() {
    SPENT.set(MATCH_BUDGET);
}

/// Runs `f` with `jobs` answered ahead, in one batch on one worker thread (in order, within the
/// same bounds as [`run`]): a job `f` asks for that is among them is answered from the batch.
/// Each [`run`] otherwise starts a worker of its own, and waits on it: `convert` checks each
/// tool matcher twice, and at 10 000 rules the threads cost more than the rest of the
/// conversion (under load, each handoff waits for a CPU). The answers are those of the same
/// jobs run one by one; they are dropped when `f` returns.
pub fn with_answers<R>(jobs: Vec<Job>, f: impl FnOnce() -> R) -> R {
    // A job [`Job::precheck`] answers is answered so again when asked: not run ahead.
    let jobs: Vec<Job> = jobs.into_iter().filter(Job::needs_engine).collect();
    let answers = run(jobs.clone());
    AHEAD.with(|ahead| {
        let mut ahead = ahead.borrow_mut();
        for (job, answer) in jobs.into_iter().zip(answers) {
            ahead
                .entry(job.pattern)
                .or_default()
                .push((job.anchored, job.values, answer));
        }
    });
    let result = f();
    AHEAD.with(|ahead| ahead.borrow_mut().clear());
    result
}

/// The answer [`with_answers`] has for `job`, if any.
fn answered_ahead(job: &Job) -> Option<Answer> {
    AHEAD.with(|ahead| {
        let ahead = ahead.borrow();
        if ahead.is_empty() {
            return None;
        }
        ahead
            .get(job.pattern.as_str())?
            .iter()
            .find(|(anchored, values, _)| *anchored == job.anchored && *values == job.values)
            .map(|(_, _, answer)| answer.clone())
    })
}

/// Answers every job, in order, within the bounds of this module.
pub fn run(jobs: Vec<Job>) -> Vec<Answer> {
    let mut answers: Vec<Option<Answer>> = jobs
        .iter()
        .map(|job| job.precheck().or_else(|| answered_ahead(job)))
        .collect();
    let pending: Vec<(usize, Job)> = jobs
        .into_iter()
        .enumerate()
        .filter(|(i, _)| answers[*i].is_none())
        .collect();
    if !pending.is_empty() {
        for ((i, _), answer) in pending.iter().zip(run_on_workers(&pending)) {
            answers[*i] = Some(answer);
        }
    }
    answers
        .into_iter()
        .map(|a| a.expect("every job answered"))
        .collect()
}

/// The answer [`run_one`] gives a regex of literal alternatives
/// ([`super::matcher::Literals`]) tested on `values`, without making a job of it (`convert`
/// asks this for every tool matcher, twice); `None` when the regex is of no literal shape.
pub fn literal_matches(pattern: &str, anchored: bool, values: &[String]) -> Option<Vec<bool>> {
    let literals = Literals::parse(pattern, anchored)?;
    Some(values.iter().map(|v| literals.is_match(v)).collect())
}

/// One job, as [`run`] answers it.
pub fn run_one(job: Job) -> Answer {
    run(vec![job]).pop().expect("one answer per job")
}

/// Runs the jobs in order on a worker thread; a job that overruns is abandoned and the rest go
/// on on a new worker, until this thread's budget is spent.
fn run_on_workers(jobs: &[(usize, Job)]) -> Vec<Answer> {
    let mut answers = Vec::with_capacity(jobs.len());
    while answers.len() < jobs.len() {
        if SPENT.get() >= MATCH_BUDGET {
            answers.resize(jobs.len(), budget_spent());
            break;
        }
        let (tx, rx) = mpsc::channel();
        let batch: Vec<Job> = jobs[answers.len()..]
            .iter()
            .map(|(_, j)| j.clone())
            .collect();
        let (tid_tx, tid_rx) = mpsc::channel();
        let worker = thread::Builder::new()
            .name("hookx-matcher".into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                let _ = tid_tx.send(thread_id());
                for job in &batch {
                    if tx.send(job.run()).is_err() {
                        return;
                    }
                }
            });
        if let Err(e) = worker {
            let why = format!("not evaluated: cannot start a thread for it: {e}");
            answers.resize(jobs.len(), Answer::Unevaluable(why));
            break;
        }
        while answers.len() < jobs.len() {
            let left = MATCH_BUDGET.saturating_sub(SPENT.get());
            let wait = MATCH_TIME_LIMIT.min(left);
            let started = Instant::now();
            let received = rx.recv_timeout(wait);
            SPENT.set(SPENT.get() + started.elapsed());
            match received {
                Ok(answer) => answers.push(answer),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    lower_priority(tid_rx.try_recv().ok().flatten());
                    if wait < MATCH_TIME_LIMIT {
                        answers.resize(jobs.len(), budget_spent());
                        return answers;
                    }
                    answers.push(Answer::Unevaluable(format!(
                        "ran away: no answer within {} ms (catastrophic backtracking? nested \
                         quantifiers such as `(a+)+` explode on long values)",
                        MATCH_TIME_LIMIT.as_millis()
                    )));
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    answers.push(Answer::Unevaluable(
                        "not evaluated: the thread evaluating it died".to_string(),
                    ));
                    break;
                }
            }
        }
    }
    answers
}

/// The answer to every job once [`MATCH_BUDGET`] is spent.
fn budget_spent() -> Answer {
    Answer::Unevaluable(format!(
        "not evaluated: regex matchers took more than {} ms in all; hookx evaluates no more",
        MATCH_BUDGET.as_millis()
    ))
}

#[cfg(target_os = "linux")]
fn thread_id() -> Option<rustix::process::Pid> {
    Some(rustix::thread::gettid())
}

#[cfg(not(target_os = "linux"))]
fn thread_id() -> Option<()> {
    None
}

/// An abandoned worker spins until the process exits: at the lowest priority, so that it
/// takes a CPU only from nobody (Linux sets the nice value of one thread by its id).
#[cfg(target_os = "linux")]
fn lower_priority(tid: Option<rustix::process::Pid>) {
    if let Some(tid) = tid {
        let _ = rustix::process::setpriority_process(Some(tid), 19);
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority(_: Option<()>) {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Jobs answered ahead give the answers they give one by one, whatever else is asked
    /// meanwhile; the batch is gone once the call returns.
    #[test]
    fn answers_ahead_are_the_answers_of_each_job() {
        let values: Vec<String> = ["mcp__a__b", "Bash", "mcp__x"].map(String::from).into();
        let jobs = vec![
            Job::new("mcp__.*__.*", false, values.clone()),
            Job::new("^Ba", true, values.clone()),
            Job::new("(", false, values.clone()),
        ];
        let alone: Vec<Answer> = jobs.iter().map(|j| run_one(j.clone())).collect();
        let (ahead, other) = with_answers(jobs.clone(), || {
            let ahead: Vec<Answer> = jobs.iter().map(|j| run_one(j.clone())).collect();
            (ahead, run_one(Job::new("x$", false, values.clone())))
        });
        assert_eq!(ahead, alone);
        assert_eq!(alone[0], Answer::Matches(vec![true, false, false]));
        assert!(matches!(alone[2], Answer::Invalid(_)), "{:?}", alone[2]);
        assert_eq!(other, Answer::Matches(vec![false, false, true]));
        assert!(AHEAD.with(|ahead| ahead.borrow().is_empty()));
    }

    /// A thread that has spent its budget gets no regex evaluated; another thread of the same
    /// process (a test beside it, a library caller's worker) still gets its answers.
    #[test]
    fn the_budget_is_each_threads_own() {
        let job = || Job::new("^a.*b$", false, vec!["axb".to_string()]);
        let spent = thread::spawn(move || {
            SPENT.set(MATCH_BUDGET);
            run_one(job())
        })
        .join()
        .unwrap();
        assert!(
            matches!(&spent, Answer::Unevaluable(why) if why.contains("in all")),
            "{spent:?}"
        );
        // Literal alternatives need no engine: answered whatever the budget.
        let literal = thread::spawn(|| {
            SPENT.set(MATCH_BUDGET);
            run_one(Job::new("a|b", true, vec!["b".to_string()]))
        });
        assert_eq!(literal.join().unwrap(), Answer::Matches(vec![true]));
        assert_eq!(run_one(job()), Answer::Matches(vec![true]));
    }

    /// A unit of work gets a budget of its own whatever this thread spent before, and its own
    /// waiting still counts after it.
    #[test]
    fn a_unit_of_work_has_a_budget_of_its_own() {
        let answer = thread::spawn(|| {
            spend_this_threads_budget();
            let answer =
                with_own_budget(|| run_one(Job::new("^a.*b$", false, vec!["axb".to_string()])));
            assert!(SPENT.get() >= MATCH_BUDGET);
            answer
        });
        assert_eq!(answer.join().unwrap(), Answer::Matches(vec![true]));
    }

    #[test]
    fn deep_nesting_and_huge_patterns_are_answered_without_overflowing() {
        let deep = format!("{}a{}", "(".repeat(2000), ")".repeat(2000));
        assert!(deep.len() <= MAX_REGEX_BYTES);
        // As many alternatives as the size cap allows (the most a regex can recurse on).
        let wide: Vec<String> = (0..1350).map(|i| format!("{}.", i % 10)).collect();
        let wide = wide.join("|");
        assert!(wide.len() <= MAX_REGEX_BYTES);
        let huge: Vec<String> = (0..70_000).map(|i| format!("(t{i})")).collect();
        let answers = run(vec![
            Job::new(&wide, true, vec!["7x".into(), "x7".into()]),
            Job::new(&huge.join("|"), false, vec!["t5".into()]),
            Job::new("(", false, vec![]),
            Job::new("mcp__.*", false, vec!["mcp__x".into()]),
        ]);
        assert_eq!(answers[0], Answer::Matches(vec![true, false]));
        let deep = run_one(Job::new(&deep, false, vec!["a".into()]));
        assert!(
            matches!(&deep, Answer::Invalid(e) if e.contains("nested")),
            "{deep:?}"
        );
        assert!(
            matches!(&answers[1], Answer::Unevaluable(why) if why.contains("bytes")),
            "{:?}",
            answers[1]
        );
        assert!(matches!(answers[2], Answer::Invalid(_)), "{:?}", answers[2]);
        assert_eq!(answers[3], Answer::Matches(vec![true]));
    }
}
