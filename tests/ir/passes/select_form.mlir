// RUN: --pass-pipeline=builtin.module(nvvm.func(select-form,canonicalize)) --pass-statistics
// select-form on the nvvm IR of tests/ptx/branchless.cu just before the pass in the -O3
// pipeline (`--print-ir-before=select-form`), then canonicalize, which makes the max/min
// and the i1 and/or. warp_extremes: each unrolled step's `?:` and `if (x < u) u = x;`
// become smax and umin. pick: `&&`, `||`, if/else with arithmetic on both arms
// (speculated, a diamond) and the clamp's nested `?:` become selects. keep: what must
// stay a branch: the guarded load, the division (undefined by zero), the store, and the
// arm of more than four ops.
module {
  nvvm.func kernel @_Z13warp_extremesPKiPiPji(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i32) {
    %0 = constant 0 : i32
    %1 = constant 1 : i32
    %2 = constant 2 : i32
    %3 = constant 4 : i32
    %4 = constant 8 : i32
    %5 = constant 16 : i32
    %6 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %7 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %8 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %9 = sreg ctaid_x : i32
    %10 = sreg ntid_x : i32
    %11 = mul %9, %10 : i32
    %12 = sreg tid_x : i32
    %13 = add %11, %12 : i32
    %14 = icmp slt, %13, %arg3 : i32
    cond_br %14, ^bb2, ^bb3
  ^bb2:
    %15 = sext %13 : i32 to i64
    %16 = constant 4 : i64
    %17 = mul %15, %16 : i64
    %18 = ptradd %8, %17 : !llvm.ptr<1>, i64
    %19 = load %18 {align = 4 : i32} : !llvm.ptr<1> -> i32
    br ^bb4(%19 : i32)
  ^bb3:
    %20 = constant 2147483647 : i32
    %21 = constant 0 : i32
    %22 = constant -2147483647 : i32
    %23 = sub %21, %20 : i32
    br ^bb4(%22 : i32)
  ^bb4(%24: i32):
    %25 = icmp slt, %13, %arg3 : i32
    cond_br %25, ^bb5, ^bb6
  ^bb5:
    %26 = sext %13 : i32 to i64
    %27 = constant 4 : i64
    %28 = mul %26, %27 : i64
    %29 = ptradd %8, %28 : !llvm.ptr<1>, i64
    %30 = load %29 {align = 4 : i32} : !llvm.ptr<1> -> i32
    br ^bb7(%30 : i32)
  ^bb6:
    %31 = constant -1 : i32
    br ^bb7(%31 : i32)
  ^bb7(%32: i32):
    %33 = constant 32 : i32
    %34 = constant 2 : i32
    %35 = constant 16 : i32
    %36 = sdiv %33, %34 : i32
    br ^bb8
  ^bb8:
    %37 = constant 0 : i32
    %38 = icmp sgt, %5, %37 : i32
    br ^bb9
  ^bb9:
    %39 = constant -1 : i32
    %40 = constant 32 : i32
    %41 = constant 32 : i32
    %42 = constant 0 : i32
    %43 = sub %41, %40 : i32
    %44 = constant 8 : i32
    %45 = constant 0 : i32
    %46 = shl %42, %44 : i32
    %47 = constant 31 : i32
    %48 = constant 31 : i32
    %49 = or %45, %47 : i32
    %50 = shfl bfly %39, %24, %5, %48 : i32
    %51 = icmp sgt, %24, %50 : i32
    cond_br %51, ^bb10(%24 : i32), ^bb10(%50 : i32)
  ^bb10(%52: i32):
    %53 = constant -1 : i32
    %54 = constant 32 : i32
    %55 = constant 32 : i32
    %56 = constant 0 : i32
    %57 = sub %55, %54 : i32
    %58 = constant 8 : i32
    %59 = constant 0 : i32
    %60 = shl %56, %58 : i32
    %61 = constant 31 : i32
    %62 = constant 31 : i32
    %63 = or %59, %61 : i32
    %64 = shfl down %53, %32, %5, %62 : i32
    %65 = icmp ult, %64, %32 : i32
    cond_br %65, ^bb11(%64 : i32), ^bb11(%32 : i32)
  ^bb11(%66: i32):
    %67 = constant 2 : i32
    %68 = constant 8 : i32
    %69 = sdiv %5, %67 : i32
    br ^bb12
  ^bb12:
    %70 = constant 0 : i32
    %71 = icmp sgt, %4, %70 : i32
    br ^bb13
  ^bb13:
    %72 = constant -1 : i32
    %73 = constant 32 : i32
    %74 = constant 32 : i32
    %75 = constant 0 : i32
    %76 = sub %74, %73 : i32
    %77 = constant 8 : i32
    %78 = constant 0 : i32
    %79 = shl %75, %77 : i32
    %80 = constant 31 : i32
    %81 = constant 31 : i32
    %82 = or %78, %80 : i32
    %83 = shfl bfly %72, %52, %4, %81 : i32
    %84 = icmp sgt, %52, %83 : i32
    cond_br %84, ^bb14(%52 : i32), ^bb14(%83 : i32)
  ^bb14(%85: i32):
    %86 = constant -1 : i32
    %87 = constant 32 : i32
    %88 = constant 32 : i32
    %89 = constant 0 : i32
    %90 = sub %88, %87 : i32
    %91 = constant 8 : i32
    %92 = constant 0 : i32
    %93 = shl %89, %91 : i32
    %94 = constant 31 : i32
    %95 = constant 31 : i32
    %96 = or %92, %94 : i32
    %97 = shfl down %86, %66, %4, %95 : i32
    %98 = icmp ult, %97, %66 : i32
    cond_br %98, ^bb15(%97 : i32), ^bb15(%66 : i32)
  ^bb15(%99: i32):
    %100 = constant 2 : i32
    %101 = constant 4 : i32
    %102 = sdiv %4, %100 : i32
    br ^bb16
  ^bb16:
    %103 = constant 0 : i32
    %104 = icmp sgt, %3, %103 : i32
    br ^bb17
  ^bb17:
    %105 = constant -1 : i32
    %106 = constant 32 : i32
    %107 = constant 32 : i32
    %108 = constant 0 : i32
    %109 = sub %107, %106 : i32
    %110 = constant 8 : i32
    %111 = constant 0 : i32
    %112 = shl %108, %110 : i32
    %113 = constant 31 : i32
    %114 = constant 31 : i32
    %115 = or %111, %113 : i32
    %116 = shfl bfly %105, %85, %3, %114 : i32
    %117 = icmp sgt, %85, %116 : i32
    cond_br %117, ^bb18(%85 : i32), ^bb18(%116 : i32)
  ^bb18(%118: i32):
    %119 = constant -1 : i32
    %120 = constant 32 : i32
    %121 = constant 32 : i32
    %122 = constant 0 : i32
    %123 = sub %121, %120 : i32
    %124 = constant 8 : i32
    %125 = constant 0 : i32
    %126 = shl %122, %124 : i32
    %127 = constant 31 : i32
    %128 = constant 31 : i32
    %129 = or %125, %127 : i32
    %130 = shfl down %119, %99, %3, %128 : i32
    %131 = icmp ult, %130, %99 : i32
    cond_br %131, ^bb19(%130 : i32), ^bb19(%99 : i32)
  ^bb19(%132: i32):
    %133 = constant 2 : i32
    %134 = constant 2 : i32
    %135 = sdiv %3, %133 : i32
    br ^bb20
  ^bb20:
    %136 = constant 0 : i32
    %137 = icmp sgt, %2, %136 : i32
    br ^bb21
  ^bb21:
    %138 = constant -1 : i32
    %139 = constant 32 : i32
    %140 = constant 32 : i32
    %141 = constant 0 : i32
    %142 = sub %140, %139 : i32
    %143 = constant 8 : i32
    %144 = constant 0 : i32
    %145 = shl %141, %143 : i32
    %146 = constant 31 : i32
    %147 = constant 31 : i32
    %148 = or %144, %146 : i32
    %149 = shfl bfly %138, %118, %2, %147 : i32
    %150 = icmp sgt, %118, %149 : i32
    cond_br %150, ^bb22(%118 : i32), ^bb22(%149 : i32)
  ^bb22(%151: i32):
    %152 = constant -1 : i32
    %153 = constant 32 : i32
    %154 = constant 32 : i32
    %155 = constant 0 : i32
    %156 = sub %154, %153 : i32
    %157 = constant 8 : i32
    %158 = constant 0 : i32
    %159 = shl %155, %157 : i32
    %160 = constant 31 : i32
    %161 = constant 31 : i32
    %162 = or %158, %160 : i32
    %163 = shfl down %152, %132, %2, %161 : i32
    %164 = icmp ult, %163, %132 : i32
    cond_br %164, ^bb23(%163 : i32), ^bb23(%132 : i32)
  ^bb23(%165: i32):
    %166 = constant 2 : i32
    %167 = constant 1 : i32
    %168 = sdiv %2, %166 : i32
    br ^bb24
  ^bb24:
    %169 = constant 0 : i32
    %170 = icmp sgt, %1, %169 : i32
    br ^bb25
  ^bb25:
    %171 = constant -1 : i32
    %172 = constant 32 : i32
    %173 = constant 32 : i32
    %174 = constant 0 : i32
    %175 = sub %173, %172 : i32
    %176 = constant 8 : i32
    %177 = constant 0 : i32
    %178 = shl %174, %176 : i32
    %179 = constant 31 : i32
    %180 = constant 31 : i32
    %181 = or %177, %179 : i32
    %182 = shfl bfly %171, %151, %1, %180 : i32
    %183 = icmp sgt, %151, %182 : i32
    cond_br %183, ^bb26(%151 : i32), ^bb26(%182 : i32)
  ^bb26(%184: i32):
    %185 = constant -1 : i32
    %186 = constant 32 : i32
    %187 = constant 32 : i32
    %188 = constant 0 : i32
    %189 = sub %187, %186 : i32
    %190 = constant 8 : i32
    %191 = constant 0 : i32
    %192 = shl %188, %190 : i32
    %193 = constant 31 : i32
    %194 = constant 31 : i32
    %195 = or %191, %193 : i32
    %196 = shfl down %185, %165, %1, %194 : i32
    %197 = icmp ult, %196, %165 : i32
    cond_br %197, ^bb27(%196 : i32), ^bb27(%165 : i32)
  ^bb27(%198: i32):
    %199 = constant 2 : i32
    %200 = constant 0 : i32
    %201 = sdiv %1, %199 : i32
    br ^bb28
  ^bb28:
    %202 = constant 0 : i32
    %203 = icmp sgt, %0, %202 : i32
    br ^bb29
  ^bb29:
    %204 = sreg tid_x : i32
    %205 = constant 32 : i32
    %206 = urem %204, %205 : i32
    %207 = constant 0 : i32
    %208 = icmp eq, %206, %207 : i32
    cond_br %208, ^bb30, ^bb31
  ^bb30:
    %209 = atomicrmw smax %7, %184 gpu : !llvm.ptr<1>, i32
    %210 = atomicrmw umin %6, %198 gpu : !llvm.ptr<1>, i32
    br ^bb31
  ^bb31:
    return
  }
  nvvm.func kernel @_Z4pickPKiS0_Pii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: i32) {
    %0 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %2 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %3 = sreg ctaid_x : i32
    %4 = sreg ntid_x : i32
    %5 = mul %3, %4 : i32
    %6 = sreg tid_x : i32
    %7 = add %5, %6 : i32
    %8 = icmp sge, %7, %arg3 : i32
    cond_br %8, ^bb2, ^bb3
  ^bb2:
    return
  ^bb3:
    %9 = sext %7 : i32 to i64
    %10 = constant 4 : i64
    %11 = mul %9, %10 : i64
    %12 = ptradd %2, %11 : !llvm.ptr<1>, i64
    %13 = load %12 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %14 = sext %7 : i32 to i64
    %15 = constant 4 : i64
    %16 = mul %14, %15 : i64
    %17 = ptradd %1, %16 : !llvm.ptr<1>, i64
    %18 = load %17 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %19 = constant 0 : i32
    %20 = constant 0 : i32
    %21 = icmp sgt, %13, %20 : i32
    cond_br %21, ^bb4, ^bb5
  ^bb4:
    %22 = constant 0 : i32
    %23 = icmp sgt, %18, %22 : i32
    br ^bb6(%23 : i1)
  ^bb5:
    %24 = constant false
    br ^bb6(%24 : i1)
  ^bb6(%25: i1):
    cond_br %25, ^bb7, ^bb8(%19 : i32)
  ^bb7:
    %26 = constant 1 : i32
    %27 = constant 1 : i32
    %28 = or %19, %26 : i32
    br ^bb8(%27 : i32)
  ^bb8(%29: i32):
    %30 = constant 0 : i32
    %31 = icmp slt, %13, %30 : i32
    cond_br %31, ^bb9, ^bb10
  ^bb9:
    %32 = constant true
    br ^bb11(%32 : i1)
  ^bb10:
    %33 = constant 0 : i32
    %34 = icmp slt, %18, %33 : i32
    br ^bb11(%34 : i1)
  ^bb11(%35: i1):
    cond_br %35, ^bb12, ^bb13(%29 : i32)
  ^bb12:
    %36 = constant 2 : i32
    %37 = or %29, %36 : i32
    br ^bb13(%37 : i32)
  ^bb13(%38: i32):
    %39 = icmp sgt, %13, %18 : i32
    cond_br %39, ^bb14, ^bb15
  ^bb14:
    %40 = sub %13, %18 : i32
    br ^bb16(%40 : i32)
  ^bb15:
    %41 = sub %18, %13 : i32
    %42 = constant 2 : i32
    %43 = mul %41, %42 : i32
    br ^bb16(%43 : i32)
  ^bb16(%44: i32):
    %45 = sext %7 : i32 to i64
    %46 = constant 4 : i64
    %47 = mul %45, %46 : i64
    %48 = ptradd %0, %47 : !llvm.ptr<1>, i64
    %49 = add %44, %38 : i32
    %50 = constant 100 : i32
    %51 = constant 0 : i32
    %52 = constant -100 : i32
    %53 = sub %51, %50 : i32
    %54 = constant 100 : i32
    br ^bb17
  ^bb17:
    %55 = icmp slt, %49, %52 : i32
    cond_br %55, ^bb20(%52 : i32), ^bb18
  ^bb18:
    %56 = icmp sgt, %49, %54 : i32
    cond_br %56, ^bb19(%54 : i32), ^bb19(%49 : i32)
  ^bb19(%57: i32):
    br ^bb20(%57 : i32)
  ^bb20(%58: i32):
    br ^bb21
  ^bb21:
    store %58, %48 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z4keepPKiPiii(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i32, %arg3: i32) {
    %0 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %2 = sreg ctaid_x : i32
    %3 = sreg ntid_x : i32
    %4 = mul %2, %3 : i32
    %5 = sreg tid_x : i32
    %6 = add %4, %5 : i32
    %7 = icmp slt, %6, %arg2 : i32
    cond_br %7, ^bb2, ^bb3
  ^bb2:
    %8 = sext %6 : i32 to i64
    %9 = constant 4 : i64
    %10 = mul %8, %9 : i64
    %11 = ptradd %1, %10 : !llvm.ptr<1>, i64
    %12 = load %11 {align = 4 : i32} : !llvm.ptr<1> -> i32
    br ^bb4(%12 : i32)
  ^bb3:
    %13 = constant 0 : i32
    br ^bb4(%13 : i32)
  ^bb4(%14: i32):
    %15 = constant 0 : i32
    %16 = icmp ne, %arg3, %15 : i32
    cond_br %16, ^bb5, ^bb6
  ^bb5:
    %17 = sdiv %arg2, %arg3 : i32
    br ^bb7(%17 : i32)
  ^bb6:
    %18 = constant 0 : i32
    br ^bb7(%18 : i32)
  ^bb7(%19: i32):
    %20 = icmp sgt, %14, %19 : i32
    cond_br %20, ^bb8, ^bb9
  ^bb8:
    %21 = constant 8 : i32
    %22 = srem %6, %21 : i32
    %23 = sext %22 : i32 to i64
    %24 = constant 4 : i64
    %25 = mul %23, %24 : i64
    %26 = ptradd %0, %25 : !llvm.ptr<1>, i64
    store %14, %26 {align = 4 : i32} : i32, !llvm.ptr<1>
    br ^bb9
  ^bb9:
    %27 = constant 3 : i32
    %28 = icmp sgt, %19, %27 : i32
    cond_br %28, ^bb10, ^bb11(%14 : i32)
  ^bb10:
    %29 = constant 3 : i32
    %30 = mul %14, %29 : i32
    %31 = add %30, %19 : i32
    %32 = constant 2 : i32
    %33 = shl %14, %32 : i32
    %34 = xor %31, %33 : i32
    %35 = constant 1 : i32
    %36 = ashr %19, %35 : i32
    %37 = sub %34, %36 : i32
    %38 = constant 7 : i32
    %39 = add %37, %38 : i32
    br ^bb11(%39 : i32)
  ^bb11(%40: i32):
    %41 = sext %6 : i32 to i64
    %42 = constant 4 : i64
    %43 = mul %41, %42 : i64
    %44 = ptradd %0, %43 : !llvm.ptr<1>, i64
    %45 = add %40, %19 : i32
    store %45, %44 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  nvvm.func kernel @_Z4pow2PKiPKxPiPxi(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: i32) {
    %0 = addrspacecast %arg3 : !llvm.ptr to !llvm.ptr<1>
    %1 = addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>
    %2 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %3 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    br ^bb1
  ^bb1:
    %4 = sreg ctaid_x : i32
    %5 = sreg ntid_x : i32
    %6 = mul %4, %5 : i32
    %7 = sreg tid_x : i32
    %8 = add %6, %7 : i32
    %9 = icmp sge, %8, %arg4 : i32
    cond_br %9, ^bb2, ^bb3
  ^bb2:
    return
  ^bb3:
    %10 = sext %8 : i32 to i64
    %11 = constant 4 : i64
    %12 = mul %10, %11 : i64
    %13 = ptradd %3, %12 : !llvm.ptr<1>, i64
    %14 = load %13 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %15 = sext %8 : i32 to i64
    %16 = constant 8 : i64
    %17 = mul %15, %16 : i64
    %18 = ptradd %2, %17 : !llvm.ptr<1>, i64
    %19 = load %18 {align = 8 : i32} : !llvm.ptr<1> -> i64
    %20 = constant 4 : i32
    %21 = mul %20, %8 : i32
    %22 = sext %21 : i32 to i64
    %23 = constant 4 : i64
    %24 = mul %22, %23 : i64
    %25 = ptradd %1, %24 : !llvm.ptr<1>, i64
    %26 = constant 2 : i32
    %27 = sdiv %14, %26 : i32
    %28 = constant 2 : i32
    %29 = srem %14, %28 : i32
    %30 = add %27, %29 : i32
    store %30, %25 {align = 4 : i32} : i32, !llvm.ptr<1>
    %31 = constant 4 : i32
    %32 = mul %31, %8 : i32
    %33 = constant 1 : i32
    %34 = add %32, %33 : i32
    %35 = sext %34 : i32 to i64
    %36 = constant 4 : i64
    %37 = mul %35, %36 : i64
    %38 = ptradd %1, %37 : !llvm.ptr<1>, i64
    %39 = constant 16 : i32
    %40 = sdiv %14, %39 : i32
    %41 = constant 16 : i32
    %42 = srem %14, %41 : i32
    %43 = sub %40, %42 : i32
    store %43, %38 {align = 4 : i32} : i32, !llvm.ptr<1>
    %44 = constant 4 : i32
    %45 = mul %44, %8 : i32
    %46 = constant 2 : i32
    %47 = add %45, %46 : i32
    %48 = sext %47 : i32 to i64
    %49 = constant 4 : i64
    %50 = mul %48, %49 : i64
    %51 = ptradd %1, %50 : !llvm.ptr<1>, i64
    %52 = constant 8 : i32
    %53 = udiv %14, %52 : i32
    %54 = constant 64 : i32
    %55 = urem %14, %54 : i32
    %56 = add %53, %55 : i32
    store %56, %51 {align = 4 : i32} : i32, !llvm.ptr<1>
    %57 = constant 4 : i32
    %58 = mul %57, %8 : i32
    %59 = constant 3 : i32
    %60 = add %58, %59 : i32
    %61 = sext %60 : i32 to i64
    %62 = constant 4 : i64
    %63 = mul %61, %62 : i64
    %64 = ptradd %1, %63 : !llvm.ptr<1>, i64
    %65 = constant 1073741824 : i32
    %66 = sdiv %14, %65 : i32
    %67 = constant 1073741824 : i32
    %68 = srem %14, %67 : i32
    %69 = add %66, %68 : i32
    store %69, %64 {align = 4 : i32} : i32, !llvm.ptr<1>
    %70 = constant 2 : i32
    %71 = mul %70, %8 : i32
    %72 = sext %71 : i32 to i64
    %73 = constant 8 : i64
    %74 = mul %72, %73 : i64
    %75 = ptradd %0, %74 : !llvm.ptr<1>, i64
    %76 = constant 4096 : i32
    %77 = constant 4096 : i64
    %78 = sext %76 : i32 to i64
    %79 = sdiv %19, %77 : i64
    %80 = constant 4096 : i32
    %81 = constant 4096 : i64
    %82 = sext %80 : i32 to i64
    %83 = srem %19, %81 : i64
    %84 = add %79, %83 : i64
    store %84, %75 {align = 8 : i32} : i64, !llvm.ptr<1>
    %85 = constant 2 : i32
    %86 = mul %85, %8 : i32
    %87 = constant 1 : i32
    %88 = add %86, %87 : i32
    %89 = sext %88 : i32 to i64
    %90 = constant 8 : i64
    %91 = mul %89, %90 : i64
    %92 = ptradd %0, %91 : !llvm.ptr<1>, i64
    %93 = constant 32 : i64
    %94 = udiv %19, %93 : i64
    %95 = constant 1024 : i64
    %96 = urem %19, %95 : i64
    %97 = add %94, %96 : i64
    store %97, %92 {align = 8 : i32} : i64, !llvm.ptr<1>
    return
  }
}
