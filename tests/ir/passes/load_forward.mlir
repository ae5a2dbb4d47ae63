// RUN: --pass-pipeline=builtin.module(nvvm.func(load-forward)) --pass-statistics
// load-forward on the nvvm IR of tests/ir/sources/load_forward.cu just before the pass in
// the -O3 pipeline: the ring buffer's loads are all forwarded along the unrolled chain of
// blocks (its indices fold as they go) and the variable goes; the array whose address
// escapes into a call, the one stored at a run-time index and the volatile one keep their
// loads.
module {
  nvvm.func kernel @_Z4ringPKiPi(%arg0: !llvm.ptr, %arg1: !llvm.ptr) {
    %0 = constant 4 : i32
    %1 = constant 3 : i32
    %2 = constant 2 : i32
    %3 = constant 1 : i32
    %4 = constant 0 : i32
    %5 = constant 0 : i32
    %6 = constant 6 : i32
    %7 = constant 5 : i32
    %8 = constant 4 : i32
    %9 = constant 3 : i32
    %10 = constant 2 : i32
    %11 = constant 1 : i32
    %12 = constant 0 : i32
    %13 = constant 4 : i32
    %14 = constant 3 : i32
    %15 = constant 2 : i32
    %16 = constant 1 : i32
    %17 = constant 0 : i32
    %18 = addrspacecast %arg1 : !llvm.ptr to !llvm.ptr<1>
    %19 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %20 = alloca {align = 4 : i32, name = "r", size = 20 : i64} : !llvm.ptr<5>
    br ^bb1
  ^bb1:
    %21 = constant 16 : i64
    %22 = ptradd %20, %21 : !llvm.ptr<5>, i64
    %23 = constant 0 : i32
    store %23, %22 {align = 4 : i32} : i32, !llvm.ptr<5>
    %24 = constant 0 : i32
    br ^bb2
  ^bb2:
    %25 = constant 4 : i32
    %26 = icmp slt, %17, %25 : i32
    br ^bb3
  ^bb3:
    %27 = constant 0 : i64
    %28 = sext %17 : i32 to i64
    %29 = constant 4 : i64
    %30 = constant 0 : i64
    %31 = mul %27, %29 : i64
    %32 = ptradd %20, %30 : !llvm.ptr<5>, i64
    %33 = constant 0 : i32
    store %33, %32 {align = 4 : i32} : i32, !llvm.ptr<5>
    %34 = constant 1 : i32
    %35 = constant 1 : i32
    %36 = add %17, %34 : i32
    br ^bb4
  ^bb4:
    %37 = constant 4 : i32
    %38 = icmp slt, %16, %37 : i32
    br ^bb5
  ^bb5:
    %39 = constant 1 : i64
    %40 = sext %16 : i32 to i64
    %41 = constant 4 : i64
    %42 = constant 4 : i64
    %43 = mul %39, %41 : i64
    %44 = ptradd %20, %42 : !llvm.ptr<5>, i64
    %45 = constant 0 : i32
    store %45, %44 {align = 4 : i32} : i32, !llvm.ptr<5>
    %46 = constant 1 : i32
    %47 = constant 2 : i32
    %48 = add %16, %46 : i32
    br ^bb6
  ^bb6:
    %49 = constant 4 : i32
    %50 = icmp slt, %15, %49 : i32
    br ^bb7
  ^bb7:
    %51 = constant 2 : i64
    %52 = sext %15 : i32 to i64
    %53 = constant 4 : i64
    %54 = constant 8 : i64
    %55 = mul %51, %53 : i64
    %56 = ptradd %20, %54 : !llvm.ptr<5>, i64
    %57 = constant 0 : i32
    store %57, %56 {align = 4 : i32} : i32, !llvm.ptr<5>
    %58 = constant 1 : i32
    %59 = constant 3 : i32
    %60 = add %15, %58 : i32
    br ^bb8
  ^bb8:
    %61 = constant 4 : i32
    %62 = icmp slt, %14, %61 : i32
    br ^bb9
  ^bb9:
    %63 = constant 3 : i64
    %64 = sext %14 : i32 to i64
    %65 = constant 4 : i64
    %66 = constant 12 : i64
    %67 = mul %63, %65 : i64
    %68 = ptradd %20, %66 : !llvm.ptr<5>, i64
    %69 = constant 0 : i32
    store %69, %68 {align = 4 : i32} : i32, !llvm.ptr<5>
    %70 = constant 1 : i32
    %71 = constant 4 : i32
    %72 = add %14, %70 : i32
    br ^bb10
  ^bb10:
    %73 = constant 4 : i32
    %74 = icmp slt, %13, %73 : i32
    br ^bb11
  ^bb11:
    %75 = constant 0 : i32
    br ^bb12
  ^bb12:
    %76 = constant 6 : i32
    %77 = icmp slt, %12, %76 : i32
    br ^bb13
  ^bb13:
    %78 = sreg tid_x : i32
    %79 = zext %78 : i32 to i64
    %80 = constant 4 : i64
    %81 = mul %79, %80 : i64
    %82 = ptradd %19, %81 : !llvm.ptr<1>, i64
    %83 = load %82 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %84 = add %83, %12 : i32
    br ^bb14
  ^bb14:
    %85 = constant 16 : i64
    %86 = ptradd %20, %85 : !llvm.ptr<5>, i64
    %87 = load %86 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %88 = sext %87 : i32 to i64
    %89 = constant 4 : i64
    %90 = mul %88, %89 : i64
    %91 = ptradd %20, %90 : !llvm.ptr<5>, i64
    store %84, %91 {align = 4 : i32} : i32, !llvm.ptr<5>
    %92 = constant 16 : i64
    %93 = ptradd %20, %92 : !llvm.ptr<5>, i64
    %94 = constant 16 : i64
    %95 = ptradd %20, %94 : !llvm.ptr<5>, i64
    %96 = constant 1 : i32
    %97 = load %95 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %98 = add %97, %96 : i32
    %99 = constant 4 : i32
    %100 = srem %98, %99 : i32
    store %100, %93 {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^bb15
  ^bb15:
    %101 = constant 1 : i32
    %102 = constant 1 : i32
    %103 = add %12, %101 : i32
    br ^bb16
  ^bb16:
    %104 = constant 6 : i32
    %105 = icmp slt, %11, %104 : i32
    br ^bb17
  ^bb17:
    %106 = sreg tid_x : i32
    %107 = zext %106 : i32 to i64
    %108 = constant 4 : i64
    %109 = mul %107, %108 : i64
    %110 = ptradd %19, %109 : !llvm.ptr<1>, i64
    %111 = load %110 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %112 = add %111, %11 : i32
    br ^bb18
  ^bb18:
    %113 = constant 16 : i64
    %114 = ptradd %20, %113 : !llvm.ptr<5>, i64
    %115 = load %114 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %116 = sext %115 : i32 to i64
    %117 = constant 4 : i64
    %118 = mul %116, %117 : i64
    %119 = ptradd %20, %118 : !llvm.ptr<5>, i64
    store %112, %119 {align = 4 : i32} : i32, !llvm.ptr<5>
    %120 = constant 16 : i64
    %121 = ptradd %20, %120 : !llvm.ptr<5>, i64
    %122 = constant 16 : i64
    %123 = ptradd %20, %122 : !llvm.ptr<5>, i64
    %124 = constant 1 : i32
    %125 = load %123 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %126 = add %125, %124 : i32
    %127 = constant 4 : i32
    %128 = srem %126, %127 : i32
    store %128, %121 {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^bb19
  ^bb19:
    %129 = constant 1 : i32
    %130 = constant 2 : i32
    %131 = add %11, %129 : i32
    br ^bb20
  ^bb20:
    %132 = constant 6 : i32
    %133 = icmp slt, %10, %132 : i32
    br ^bb21
  ^bb21:
    %134 = sreg tid_x : i32
    %135 = zext %134 : i32 to i64
    %136 = constant 4 : i64
    %137 = mul %135, %136 : i64
    %138 = ptradd %19, %137 : !llvm.ptr<1>, i64
    %139 = load %138 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %140 = add %139, %10 : i32
    br ^bb22
  ^bb22:
    %141 = constant 16 : i64
    %142 = ptradd %20, %141 : !llvm.ptr<5>, i64
    %143 = load %142 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %144 = sext %143 : i32 to i64
    %145 = constant 4 : i64
    %146 = mul %144, %145 : i64
    %147 = ptradd %20, %146 : !llvm.ptr<5>, i64
    store %140, %147 {align = 4 : i32} : i32, !llvm.ptr<5>
    %148 = constant 16 : i64
    %149 = ptradd %20, %148 : !llvm.ptr<5>, i64
    %150 = constant 16 : i64
    %151 = ptradd %20, %150 : !llvm.ptr<5>, i64
    %152 = constant 1 : i32
    %153 = load %151 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %154 = add %153, %152 : i32
    %155 = constant 4 : i32
    %156 = srem %154, %155 : i32
    store %156, %149 {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^bb23
  ^bb23:
    %157 = constant 1 : i32
    %158 = constant 3 : i32
    %159 = add %10, %157 : i32
    br ^bb24
  ^bb24:
    %160 = constant 6 : i32
    %161 = icmp slt, %9, %160 : i32
    br ^bb25
  ^bb25:
    %162 = sreg tid_x : i32
    %163 = zext %162 : i32 to i64
    %164 = constant 4 : i64
    %165 = mul %163, %164 : i64
    %166 = ptradd %19, %165 : !llvm.ptr<1>, i64
    %167 = load %166 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %168 = add %167, %9 : i32
    br ^bb26
  ^bb26:
    %169 = constant 16 : i64
    %170 = ptradd %20, %169 : !llvm.ptr<5>, i64
    %171 = load %170 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %172 = sext %171 : i32 to i64
    %173 = constant 4 : i64
    %174 = mul %172, %173 : i64
    %175 = ptradd %20, %174 : !llvm.ptr<5>, i64
    store %168, %175 {align = 4 : i32} : i32, !llvm.ptr<5>
    %176 = constant 16 : i64
    %177 = ptradd %20, %176 : !llvm.ptr<5>, i64
    %178 = constant 16 : i64
    %179 = ptradd %20, %178 : !llvm.ptr<5>, i64
    %180 = constant 1 : i32
    %181 = load %179 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %182 = add %181, %180 : i32
    %183 = constant 4 : i32
    %184 = srem %182, %183 : i32
    store %184, %177 {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^bb27
  ^bb27:
    %185 = constant 1 : i32
    %186 = constant 4 : i32
    %187 = add %9, %185 : i32
    br ^bb28
  ^bb28:
    %188 = constant 6 : i32
    %189 = icmp slt, %8, %188 : i32
    br ^bb29
  ^bb29:
    %190 = sreg tid_x : i32
    %191 = zext %190 : i32 to i64
    %192 = constant 4 : i64
    %193 = mul %191, %192 : i64
    %194 = ptradd %19, %193 : !llvm.ptr<1>, i64
    %195 = load %194 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %196 = add %195, %8 : i32
    br ^bb30
  ^bb30:
    %197 = constant 16 : i64
    %198 = ptradd %20, %197 : !llvm.ptr<5>, i64
    %199 = load %198 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %200 = sext %199 : i32 to i64
    %201 = constant 4 : i64
    %202 = mul %200, %201 : i64
    %203 = ptradd %20, %202 : !llvm.ptr<5>, i64
    store %196, %203 {align = 4 : i32} : i32, !llvm.ptr<5>
    %204 = constant 16 : i64
    %205 = ptradd %20, %204 : !llvm.ptr<5>, i64
    %206 = constant 16 : i64
    %207 = ptradd %20, %206 : !llvm.ptr<5>, i64
    %208 = constant 1 : i32
    %209 = load %207 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %210 = add %209, %208 : i32
    %211 = constant 4 : i32
    %212 = srem %210, %211 : i32
    store %212, %205 {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^bb31
  ^bb31:
    %213 = constant 1 : i32
    %214 = constant 5 : i32
    %215 = add %8, %213 : i32
    br ^bb32
  ^bb32:
    %216 = constant 6 : i32
    %217 = icmp slt, %7, %216 : i32
    br ^bb33
  ^bb33:
    %218 = sreg tid_x : i32
    %219 = zext %218 : i32 to i64
    %220 = constant 4 : i64
    %221 = mul %219, %220 : i64
    %222 = ptradd %19, %221 : !llvm.ptr<1>, i64
    %223 = load %222 {align = 4 : i32} : !llvm.ptr<1> -> i32
    %224 = add %223, %7 : i32
    br ^bb34
  ^bb34:
    %225 = constant 16 : i64
    %226 = ptradd %20, %225 : !llvm.ptr<5>, i64
    %227 = load %226 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %228 = sext %227 : i32 to i64
    %229 = constant 4 : i64
    %230 = mul %228, %229 : i64
    %231 = ptradd %20, %230 : !llvm.ptr<5>, i64
    store %224, %231 {align = 4 : i32} : i32, !llvm.ptr<5>
    %232 = constant 16 : i64
    %233 = ptradd %20, %232 : !llvm.ptr<5>, i64
    %234 = constant 16 : i64
    %235 = ptradd %20, %234 : !llvm.ptr<5>, i64
    %236 = constant 1 : i32
    %237 = load %235 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %238 = add %237, %236 : i32
    %239 = constant 4 : i32
    %240 = srem %238, %239 : i32
    store %240, %233 {align = 4 : i32} : i32, !llvm.ptr<5>
    br ^bb35
  ^bb35:
    %241 = constant 1 : i32
    %242 = constant 6 : i32
    %243 = add %7, %241 : i32
    br ^bb36
  ^bb36:
    %244 = constant 6 : i32
    %245 = icmp slt, %6, %244 : i32
    br ^bb37
  ^bb37:
    %246 = sreg tid_x : i32
    %247 = zext %246 : i32 to i64
    %248 = constant 4 : i64
    %249 = mul %247, %248 : i64
    %250 = ptradd %18, %249 : !llvm.ptr<1>, i64
    br ^bb38
  ^bb38:
    %251 = constant 0 : i32
    %252 = constant 0 : i32
    br ^bb39
  ^bb39:
    %253 = constant 4 : i32
    %254 = icmp slt, %5, %253 : i32
    br ^bb40
  ^bb40:
    %255 = constant 0 : i64
    %256 = sext %5 : i32 to i64
    %257 = constant 4 : i64
    %258 = constant 0 : i64
    %259 = mul %255, %257 : i64
    %260 = ptradd %20, %258 : !llvm.ptr<5>, i64
    %261 = load %260 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %262 = add %4, %261 : i32
    %263 = constant 1 : i32
    %264 = constant 1 : i32
    %265 = add %5, %263 : i32
    br ^bb41
  ^bb41:
    %266 = constant 4 : i32
    %267 = icmp slt, %3, %266 : i32
    br ^bb42
  ^bb42:
    %268 = constant 1 : i64
    %269 = sext %3 : i32 to i64
    %270 = constant 4 : i64
    %271 = constant 4 : i64
    %272 = mul %268, %270 : i64
    %273 = ptradd %20, %271 : !llvm.ptr<5>, i64
    %274 = load %273 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %275 = add %262, %274 : i32
    %276 = constant 1 : i32
    %277 = constant 2 : i32
    %278 = add %3, %276 : i32
    br ^bb43
  ^bb43:
    %279 = constant 4 : i32
    %280 = icmp slt, %2, %279 : i32
    br ^bb44
  ^bb44:
    %281 = constant 2 : i64
    %282 = sext %2 : i32 to i64
    %283 = constant 4 : i64
    %284 = constant 8 : i64
    %285 = mul %281, %283 : i64
    %286 = ptradd %20, %284 : !llvm.ptr<5>, i64
    %287 = load %286 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %288 = add %275, %287 : i32
    %289 = constant 1 : i32
    %290 = constant 3 : i32
    %291 = add %2, %289 : i32
    br ^bb45
  ^bb45:
    %292 = constant 4 : i32
    %293 = icmp slt, %1, %292 : i32
    br ^bb46
  ^bb46:
    %294 = constant 3 : i64
    %295 = sext %1 : i32 to i64
    %296 = constant 4 : i64
    %297 = constant 12 : i64
    %298 = mul %294, %296 : i64
    %299 = ptradd %20, %297 : !llvm.ptr<5>, i64
    %300 = load %299 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %301 = add %288, %300 : i32
    %302 = constant 1 : i32
    %303 = constant 4 : i32
    %304 = add %1, %302 : i32
    br ^bb47
  ^bb47:
    %305 = constant 4 : i32
    %306 = icmp slt, %0, %305 : i32
    br ^bb48
  ^bb48:
    store %301, %250 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  
  nvvm.func device @_Z4fillPii(%arg0: !llvm.ptr, %arg1: i32) attributes {noinline} {
    br ^bb1
  ^bb1:
    %0 = constant 1 : i32
    %1 = constant 1 : i64
    %2 = sext %0 : i32 to i64
    %3 = constant 4 : i64
    %4 = constant 4 : i64
    %5 = mul %1, %3 : i64
    %6 = ptradd %arg0, %4 : !llvm.ptr, i64
    store %arg1, %6 {align = 4 : i32} : i32, !llvm.ptr
    return
  }
  
  nvvm.func kernel @_Z7escapesPi(%arg0: !llvm.ptr) {
    %0 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %1 = alloca {align = 4 : i32, name = "a", size = 8 : i64} : !llvm.ptr<5>
    br ^bb1
  ^bb1:
    %2 = constant 0 : i32
    %3 = constant 0 : i64
    %4 = sext %2 : i32 to i64
    %5 = constant 4 : i64
    %6 = constant 0 : i64
    %7 = mul %3, %5 : i64
    %8 = ptradd %1, %6 : !llvm.ptr<5>, i64
    %9 = constant 1 : i32
    store %9, %8 {align = 4 : i32} : i32, !llvm.ptr<5>
    %10 = sreg tid_x : i32
    %11 = addrspacecast %1 : !llvm.ptr<5> to !llvm.ptr
    call @_Z4fillPii(%11, %10) : (!llvm.ptr, i32) -> ()
    %12 = constant 0 : i32
    %13 = constant 0 : i64
    %14 = sext %12 : i32 to i64
    %15 = constant 4 : i64
    %16 = constant 0 : i64
    %17 = mul %13, %15 : i64
    %18 = ptradd %1, %16 : !llvm.ptr<5>, i64
    %19 = constant 1 : i32
    %20 = load %18 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %21 = add %20, %19 : i32
    store %21, %18 {align = 4 : i32} : i32, !llvm.ptr<5>
    %22 = sreg tid_x : i32
    %23 = zext %22 : i32 to i64
    %24 = constant 4 : i64
    %25 = mul %23, %24 : i64
    %26 = ptradd %0, %25 : !llvm.ptr<1>, i64
    %27 = constant 0 : i32
    %28 = constant 0 : i64
    %29 = sext %27 : i32 to i64
    %30 = constant 4 : i64
    %31 = constant 0 : i64
    %32 = mul %28, %30 : i64
    %33 = ptradd %1, %31 : !llvm.ptr<5>, i64
    %34 = constant 1 : i32
    %35 = constant 1 : i64
    %36 = sext %34 : i32 to i64
    %37 = constant 4 : i64
    %38 = constant 4 : i64
    %39 = mul %35, %37 : i64
    %40 = ptradd %1, %38 : !llvm.ptr<5>, i64
    %41 = load %33 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %42 = load %40 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %43 = add %41, %42 : i32
    store %43, %26 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  
  nvvm.func kernel @_Z13dynamic_indexPii(%arg0: !llvm.ptr, %arg1: i32) {
    %0 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %1 = alloca {align = 4 : i32, name = "a", size = 16 : i64} : !llvm.ptr<5>
    br ^bb1
  ^bb1:
    %2 = constant 0 : i32
    %3 = constant 0 : i64
    %4 = sext %2 : i32 to i64
    %5 = constant 4 : i64
    %6 = constant 0 : i64
    %7 = mul %3, %5 : i64
    %8 = ptradd %1, %6 : !llvm.ptr<5>, i64
    %9 = constant 7 : i32
    store %9, %8 {align = 4 : i32} : i32, !llvm.ptr<5>
    %10 = constant 3 : i32
    %11 = and %arg1, %10 : i32
    %12 = sext %11 : i32 to i64
    %13 = constant 4 : i64
    %14 = mul %12, %13 : i64
    %15 = ptradd %1, %14 : !llvm.ptr<5>, i64
    %16 = sreg tid_x : i32
    store %16, %15 {align = 4 : i32} : i32, !llvm.ptr<5>
    %17 = sreg tid_x : i32
    %18 = zext %17 : i32 to i64
    %19 = constant 4 : i64
    %20 = mul %18, %19 : i64
    %21 = ptradd %0, %20 : !llvm.ptr<1>, i64
    %22 = constant 0 : i32
    %23 = constant 0 : i64
    %24 = sext %22 : i32 to i64
    %25 = constant 4 : i64
    %26 = constant 0 : i64
    %27 = mul %23, %25 : i64
    %28 = ptradd %1, %26 : !llvm.ptr<5>, i64
    %29 = constant 3 : i32
    %30 = and %arg1, %29 : i32
    %31 = sext %30 : i32 to i64
    %32 = constant 4 : i64
    %33 = mul %31, %32 : i64
    %34 = ptradd %1, %33 : !llvm.ptr<5>, i64
    %35 = load %28 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %36 = load %34 {align = 4 : i32} : !llvm.ptr<5> -> i32
    %37 = add %35, %36 : i32
    store %37, %21 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  
  nvvm.func kernel @_Z9volatilesPi(%arg0: !llvm.ptr) {
    %0 = addrspacecast %arg0 : !llvm.ptr to !llvm.ptr<1>
    %1 = alloca {align = 4 : i32, name = "v", size = 8 : i64} : !llvm.ptr<5>
    br ^bb1
  ^bb1:
    %2 = constant 0 : i32
    %3 = constant 0 : i64
    %4 = sext %2 : i32 to i64
    %5 = constant 4 : i64
    %6 = constant 0 : i64
    %7 = mul %3, %5 : i64
    %8 = ptradd %1, %6 : !llvm.ptr<5>, i64
    %9 = sreg tid_x : i32
    store %9, %8 {align = 4 : i32, volatile} : i32, !llvm.ptr<5>
    %10 = sreg tid_x : i32
    %11 = zext %10 : i32 to i64
    %12 = constant 4 : i64
    %13 = mul %11, %12 : i64
    %14 = ptradd %0, %13 : !llvm.ptr<1>, i64
    %15 = constant 0 : i32
    %16 = constant 0 : i64
    %17 = sext %15 : i32 to i64
    %18 = constant 4 : i64
    %19 = constant 0 : i64
    %20 = mul %16, %18 : i64
    %21 = ptradd %1, %19 : !llvm.ptr<5>, i64
    %22 = constant 0 : i32
    %23 = constant 0 : i64
    %24 = sext %22 : i32 to i64
    %25 = constant 4 : i64
    %26 = constant 0 : i64
    %27 = mul %23, %25 : i64
    %28 = ptradd %1, %26 : !llvm.ptr<5>, i64
    %29 = load %21 {align = 4 : i32, volatile} : !llvm.ptr<5> -> i32
    %30 = load %28 {align = 4 : i32, volatile} : !llvm.ptr<5> -> i32
    %31 = add %29, %30 : i32
    store %31, %14 {align = 4 : i32} : i32, !llvm.ptr<1>
    return
  }
  
}
