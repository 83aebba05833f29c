; PASSES: function(ferrocl-uniform-gathers)
; A masked gather whose lanes all read one address (a splat, or a vector
; GEP of a scalar base and a splat index) becomes one load, made only when
; some lane is active, broadcast to the active lanes; a scatter to one
; address stores the last active lane's value. A gather of differing
; addresses stays.

; CHECK-LABEL: define <8 x float> @splat_index(
; CHECK: %[[ANY:.*]] = call i1 @llvm.vector.reduce.or.v8i1(<8 x i1> %mask)
; CHECK-NEXT: br i1 %[[ANY]], label %[[LOAD:.*]], label %[[JOIN:.*]]
; CHECK: [[LOAD]]:
; CHECK-NEXT: %[[ONE:.*]] = load float, ptr addrspace(1) %p.one, align 4
; CHECK: [[JOIN]]:
; CHECK-NEXT: %[[V:.*]] = phi float [ %[[ONE]], %[[LOAD]] ], [ poison, %entry ]
; CHECK: select <8 x i1> %mask, <8 x float> %{{.*}}, <8 x float> zeroinitializer
; CHECK-NOT: masked.gather
define <8 x float> @splat_index(ptr addrspace(1) %base, i64 %i, <8 x i1> %mask) {
entry:
  %ins = insertelement <8 x i64> poison, i64 %i, i64 0
  %idx = shufflevector <8 x i64> %ins, <8 x i64> poison, <8 x i32> zeroinitializer
  %p = getelementptr inbounds float, ptr addrspace(1) %base, <8 x i64> %idx
  %g = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 4, <8 x i1> %mask, <8 x float> zeroinitializer)
  ret <8 x float> %g
}

; CHECK-LABEL: define void @splat_scatter(
; CHECK: br i1
; CHECK: %[[BITS:.*]] = bitcast <8 x i1> %mask to i8
; CHECK-NEXT: %[[Z:.*]] = call i8 @llvm.ctlz.i8(i8 %[[BITS]], i1 true)
; CHECK-NEXT: %[[LAST:.*]] = sub i8 7, %[[Z]]
; CHECK-NEXT: %[[X:.*]] = extractelement <8 x float> %v, i8 %[[LAST]]
; CHECK-NEXT: store float %[[X]], ptr addrspace(1) %one, align 4
; CHECK-NOT: masked.scatter
define void @splat_scatter(ptr addrspace(1) %one, <8 x float> %v, <8 x i1> %mask) {
entry:
  %ins = insertelement <8 x ptr addrspace(1)> poison, ptr addrspace(1) %one, i64 0
  %p = shufflevector <8 x ptr addrspace(1)> %ins, <8 x ptr addrspace(1)> poison, <8 x i32> zeroinitializer
  call void @llvm.masked.scatter.v8f32.v8p1(<8 x float> %v, <8 x ptr addrspace(1)> %p, i32 4, <8 x i1> %mask)
  ret void
}

; CHECK-LABEL: define <8 x float> @differing(
; CHECK: call <8 x float> @llvm.masked.gather.v8f32.v8p1(
define <8 x float> @differing(ptr addrspace(1) %base, <8 x i64> %idx, <8 x i1> %mask) {
entry:
  %p = getelementptr inbounds float, ptr addrspace(1) %base, <8 x i64> %idx
  %g = call <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)> %p, i32 4, <8 x i1> %mask, <8 x float> zeroinitializer)
  ret <8 x float> %g
}

declare <8 x float> @llvm.masked.gather.v8f32.v8p1(<8 x ptr addrspace(1)>, i32, <8 x i1>, <8 x float>)
declare void @llvm.masked.scatter.v8f32.v8p1(<8 x float>, <8 x ptr addrspace(1)>, i32, <8 x i1>)
