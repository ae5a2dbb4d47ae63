//! A `.cu` file compiled to every level, kept in one IR context: the `cuda` module, the
//! `nvvm` module before the `-O` pipeline (as the conversions made it) and after it, the `ptx`
//! module and its text. `cuprite run` and the differential tests simulate any of them.

use cuprite_frontend::{diag::Severity, pp::PpConfig};
use cuprite_ir::{Context, OpId};

pub struct Levels {
    pub ctx: Context,
    pub cuda: OpId,
    /// The conversions' output, before any pass.
    pub nvvm_o0: OpId,
    /// After the `-O` pipeline.
    pub nvvm: OpId,
    pub ptx: OpId,
    pub ptx_text: String,
}

/// Options of [`compile_levels`].
#[derive(Clone, Debug)]
pub struct LevelOptions {
    pub config: PpConfig<'static>,
    pub level: u8,
    /// `-fno-unroll-loops`, `--rewrite-driver`.
    pub opt: cuprite_lowering::transforms::OptFlags,
    /// `--use_fast_math`, `-ftz`, `-prec-div`, `-prec-sqrt`, `-fmad`.
    pub float: crate::float_flags::FloatFlags,
}

impl Default for LevelOptions {
    fn default() -> Self {
        LevelOptions { config: PpConfig::default(), level: 3, opt: Default::default(), float: Default::default() }
    }
}

/// Compiles `text` (the file `name`) to every level; `Err` carries the rendered
/// diagnostics.
pub fn compile_levels(name: &str, text: &str, opts: &LevelOptions) -> Result<Levels, String> {
    let sm_target = opts.config.sm;
    let sopts = cuprite_frontend::sema::SemaOptions { arch: sm_target };
    // Sema and the lowering recurse over nesting: they run on a large stack.
    let (mut pre, (mut ctx, cuda, sema_diags)) = crate::compile::big_stack(|| {
        cuprite_frontend::parse_and_lower(name, Some(std::path::Path::new(name)), text, opts.config.clone(), sopts)
    });
    let mut diags = std::mem::take(&mut pre.diags);
    diags.extend(sema_diags);
    let errors: Vec<_> = diags.iter().filter(|d| d.severity == Severity::Error).collect();
    if !errors.is_empty() {
        return Err(errors.iter().map(|d| d.render(&pre.sm)).collect());
    }
    let link = cuprite_frontend::libm::LinkOptions { sm: sm_target, fast_math: opts.float.fast_math };
    if let Err(errs) = cuprite_frontend::libm::link(&mut ctx, cuda, &link) {
        return Err(errs.iter().map(|d| d.render(&pre.sm)).collect());
    }
    let lopts = opts.float.lowering();
    let level = opts.level;
    let (ctx, nvvm_o0, nvvm, ptx, ptx_text) = crate::compile::big_stack(|| -> Result<_, String> {
        let render = |ctx: &Context, errs: Vec<cuprite_lowering::LowerError>| -> String {
            errs.iter().map(|e| format!("error: {}: {}\n", cuprite_sim::sem::loc_string(ctx, e.loc), e.message)).collect()
        };
        // The same conversions as `cuprite compile`'s pipeline, on a copy: the cuda module
        // stays as sema left it, for the cuda level.
        let reg = cuprite_lowering::passes::registry();
        let popts = cuprite_ir::pass::PassOptions::default();
        let mut conversions = cuprite_lowering::passes::conversions(&lopts);
        conversions.push(cuprite_lowering::passes::CheckNvvmLevel::NAME.to_string());
        let text = format!("builtin.module({})", conversions.join(","));
        let pm = cuprite_ir::pass::parse_pipeline(&text, "builtin.module", &reg).map_err(|e| format!("error: {e:?}\n"))?;
        let mut copy_map = Default::default();
        let lowered = cuprite_ir::clone::clone_op(&mut ctx, cuda, &mut copy_map);
        if let Err(out) = cuprite_ir::pass::run_pipeline(&mut ctx, lowered, &pm, &popts, None) {
            return Err(out.diagnostics.iter().map(|d| format!("{d}\n")).collect::<String>());
        }
        let nvvm = lowered;
        let mut map = Default::default();
        let nvvm_o0 = cuprite_ir::clone::clone_op(&mut ctx, nvvm, &mut map);
        let pm = cuprite_ir::pass::parse_pipeline(
            &cuprite_lowering::transforms::pipeline_text(level, &cuprite_lowering::transforms::OptFlags { sm: sm_target, ..opts.opt }),
            "builtin.module",
            &reg,
        )
        .map_err(|e| format!("error: {e:?}\n"))?;
        if let Err(out) = cuprite_ir::pass::run_pipeline(&mut ctx, nvvm, &pm, &popts, None) {
            return Err(out.diagnostics.iter().map(|d| format!("{d}\n")).collect::<String>());
        }
        let ptx = cuprite_lowering::nvvm_to_ptx(&mut ctx, nvvm).map_err(|e| render(&ctx, e))?;
        let ptx_text = cuprite_lowering::print_ptx(&ctx, ptx, &cuprite_lowering::PtxOptions { sm: sm_target });
        Ok((ctx, nvvm_o0, nvvm, ptx, ptx_text))
    })?;
    Ok(Levels { ctx, cuda, nvvm_o0, nvvm, ptx, ptx_text })
}
