"""Chinese: what the gates and the speech-act reader know of it, by kind (the kinds: domain/lexicon.py)."""

LEXICON = {
    "instruction": r"忽略.{0,10}(?:指令|指示|提示)|记录(?:下)?我",
    # 说 after someone who says it ("老板说", "她跟我说", "我姐说", "我室友说"), not the user's own "先说一下" (let me
    # say), "我想说" or "话说" (by the way); 听说 / 据说 (heard / reportedly).
    "reported_speech": r"(?:他|她|他们|她们|别人|大家|朋友|同事|老板|医生|老师|妈妈|爸爸|妈|爸|老婆|老公|家人)"
                       r"(?:也|还|都|就|跟我|对我|和我)?说|我(?:的)?(?![跟对和给想先就再要得来也还都])"
                       r"[\u4e00-\u9fff]{1,3}说|告诉我|听说|据说",
    "quoted_first_person": r"我",
    "self_report": r"我(?:已经)?说过",
    # "的" is left out before a relative in speech ("我老婆是素食者", "我朋友住在上海": a break-it review).
    "other_person": r"我的?(?:朋友|同事|家人|妈妈|媽媽|爸爸|老板|老闆|妻子|丈夫|老婆|老公|哥哥|姐姐|弟弟|妹妹|儿子|兒子|"
                    r"女儿|女兒|男朋友|女朋友|室友|妈|媽|爸|哥|姐|弟|妹)"
                    r"|(?:他|她|他们)(?:不)?(?:喜欢|是|住)",
    "self": r"我(?!的)",
    "sarcasm": r"^\W*真是太好了\b",
    "kidding": r"开玩笑|逗你的",
    "conditional": r"如果|要是|假如",
    "hedge": r"也许|可能|不确定|不太确定|说不定",
    "undecided": r"再看看|看看再说|看看再說|考虑一下|考虑考虑|考慮一下|考慮考慮|想一想|想想|犹豫|猶豫|还没(?:有)?决定|還沒(?:有)?決定|再决定|再決定|还没想好|還沒想好",
    "moving_away": r"一直(?:是|用|收到|寄)|总是(?:用|收到|寄)",
    "away_from": r"而不是|不要再?用",
    "wanted": r"需要|想要|希望|以后|今后|改成|改为",
    "question_particle": r"(?:吗|呢|什么|怎么|哪|多少|几)[^。！]*[?？]\s*$",
    "request": r"^\W*请",
    "standing": r"以后|今后|一直",
    "pleasantry_whole": r"^(?:谢谢|多谢|你好|好的|再见|感谢)+(?:你|您)?$",
    "filler_words": "嗯 哦 好吧",
    "question_tail": r"^\W*(?:还是|還是|或者|对吗|對嗎|是吗|是嗎|是不是|对不对|對不對|好吗|好嗎)",
    "question_clause_end": r"(?:吗|嗎|呢)\W*$",
    "one_off": r"就这一次|只这一次|仅此一次|只有这次|就這一次|只這一次|僅此一次",
    "former": r"以前|之前|曾经|曾經|原来|原來|过去|過去",
    "desire": r"想|希望|梦想|夢想|考虑|考慮",
    "clause_joiner": r"而|但",
    "naming": r"叫|名字|姓",
    "weak_naming": r"我是",
    "living": r"住|搬|在哪个城市|在哪個城市|在哪座城市|在什么城市|在什麼城市",  # and the question which city the user is in
    "stance": r"喜欢|爱|讨厌|不喜欢|最喜欢|偏爱",
    # "好啊 麻煩你了"; not 好吃, 好像, a reluctant 好吧/行吧, nor an OK that declines or puts off ("好的，不用了")
    "assent": r"^\s*(?:好|可以|行|没问题|沒問題)(?:的|啊|呀|喔|哦|啦|滴)?(?=$|[\s,，。.!！~～、])"
              r"(?![\s,，。.!！~～、]*(?:你|我)?(?:先)?(?:不|别|別|算了|再|没|沒|考虑|考慮|但|不过|不過))",
    "fact_plan": r"^\s*用户(?:计划|打算|准备|将要|要去)",  # a plan the fact says the user made (domain/slot_repair.py)
    "fact_wish": r"^\s*用户(?:想要|想|希望|打算|在找|询问|问|要订|订了|点了)",
    "user_subject": r"^\s*用户",
    "fact_pronoun": r"它",
    "forget_nouns": {
        "email": r"邮箱(?:地址)?|电子邮件|电子邮箱",
        "phone_number": r"电话号码|手机号码?|电话|号码",
        "home_location": r"地址|住址",
        "name": r"名字|姓名",
        "job": r"工作|职业",
        "employer": r"公司",
    },
    "possessive": r"我的",
    "forget_verb": r"忘掉|忘记|忘了|删除|删掉|清除",
    "decided": r"(?:决定|定了)",
    # A liking said to have ended, where the user grew up or was born (domain/slot_repair.py).
    "cessation": r"不再喜欢|不再喜歡|不再爱|已经不喜欢|已經不喜歡|再也不喜欢",
    "travel": r"旅行|旅游|旅遊|自驾游|自駕遊|出游|出遊|度假|游玩|遊玩",
    "origin": r"长大|長大|出生|老家|家乡|家鄉",
    "channel_names": {
        "email": r"邮箱|邮件|電郵|郵件|电邮|郵箱",
        "phone": r"电话|電話|打给我|打給我",
        "sms": r"短信|簡訊|简讯",
        "wechat": r"微信",
    },
    "negation": r"没有|沒有|不|别|別|勿",
}
